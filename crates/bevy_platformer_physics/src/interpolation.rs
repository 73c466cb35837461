//! Smooth rendering between fixed steps (cargo feature `interpolation`, on by default).
//!
//! The physics moves bodies in fixed steps (60 or 100 per second); a display shows frames at its
//! own rate (60, 144 Hz). Drawn where the last step left them, bodies advance by a whole step on
//! some frames and not at all on others: they stutter. [`PhysicsInterpolationPlugin`] draws each
//! body between the positions of the last two steps instead, as far along as the frame's time is
//! between them (one step behind, so always between two known positions). The easing is the
//! `bevy_transform_interpolation` crate's, which the Bevy ecosystem (avian among others) uses.
//!
//! What is eased: the moves the plugin makes (dynamic bodies moved by the step, lifts moved by
//! their path or velocity, riders carried). What is not: a `Transform` the game writes itself —
//! a respawn, a teleport, a level change — snaps to its new place at once, whether the game writes
//! it in `Update`, in `FixedUpdate` before the step, or after it. The physics and every system in
//! `FixedUpdate` see the true positions; systems in `Update` see the drawn (eased) ones.
//!
//! Per entity: add [`TransformInterpolation`] to the bodies to smooth (the player, lifts, enemies).
//! For all entities: `PhysicsInterpolationPlugin::interpolate_all()`. Without the `interpolation`
//! feature nothing is eased.
//!
//! # Example
//!
//! ```
//! use bevy::prelude::*;
//! use bevy_platformer_physics::prelude::*;
//!
//! let mut app = App::new();
//! app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::default()));
//! // The player is drawn between steps; the static level needs no easing.
//! app.world_mut().spawn((
//!     Dynamic,
//!     Collider::rectangle(12.0, 24.0),
//!     Transform::from_xyz(0.0, 40.0, 0.0),
//!     TransformInterpolation,
//! ));
//!
//! // Or ease every entity with a Transform:
//! let mut app = App::new();
//! app.add_plugins((
//!     MinimalPlugins,
//!     PlatformerPhysicsPlugins::default().set(PhysicsInterpolationPlugin::interpolate_all()),
//! ));
//! ```

use bevy::ecs::change_detection::Tick;
use bevy::ecs::system::SystemChangeTick;
use bevy::prelude::*;
use bevy_transform_interpolation::prelude::*;
use bevy_transform_interpolation::{TransformEasingSystems, TranslationEasingState};

pub use bevy_transform_interpolation::prelude::{NoTransformEasing, TransformInterpolation};

use crate::components::Collider;
use crate::schedule::{PlatformerSystems, physics_schedule};

/// Draws bodies between their last two fixed steps, so that motion is smooth at any frame rate.
/// Part of [`PlatformerPhysicsPlugins`](crate::PlatformerPhysicsPlugins) with the `interpolation`
/// feature; by default only entities with [`TransformInterpolation`] are eased.
#[derive(Debug, Default)]
pub struct PhysicsInterpolationPlugin {
    all: bool,
}

impl PhysicsInterpolationPlugin {
    /// Eases every entity with a `Transform` (opt out with [`NoTransformEasing`]).
    pub fn interpolate_all() -> Self {
        Self { all: true }
    }
}

impl Plugin for PhysicsInterpolationPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<TransformInterpolationPlugin>() {
            app.add_plugins(if self.all {
                TransformInterpolationPlugin::interpolate_all()
            } else {
                TransformInterpolationPlugin::default()
            });
        }
        app.init_resource::<StepEnd>();
        let schedule = physics_schedule(app);
        app.add_systems(
            schedule,
            snap_moves_before_the_step.in_set(PlatformerSystems::SyncColliders),
        );
        // Inside the step's last set, after its work: a game's system ordered after the step
        // always runs after it, so a teleport there is seen as one.
        app.add_systems(
            schedule,
            note_step_end
                .in_set(PlatformerSystems::ContactEvents)
                .after(crate::step::contact_events::mark_grounded),
        );
        app.add_systems(
            FixedLast,
            snap_moves_after_the_step.before(TransformEasingSystems::UpdateEnd),
        );
    }
}

/// The change tick at the end of the latest physics step.
#[derive(Resource, Default)]
struct StepEnd(Tick);

/// The eased colliders: bodies, lifts, static colliders the game moves.
type Eased<'a> = (&'a Transform, &'a mut TranslationEasingState);

/// The easing of this step starts where the step starts: whatever the game moved before it
/// (since the easing took the start at the beginning of the fixed step) is not eased.
fn snap_moves_before_the_step(mut eased: Query<Eased, With<Collider>>) {
    for (transform, mut easing) in &mut eased {
        if easing.start.is_some_and(|start| start != transform.translation) {
            easing.start = Some(transform.translation);
        }
    }
}

fn note_step_end(mut end: ResMut<StepEnd>, ticks: SystemChangeTick) {
    end.0 = ticks.this_run();
}

/// A body the game moved after the step is not eased this step: it is drawn where it now is.
fn snap_moves_after_the_step(
    mut eased: Query<(Ref<Transform>, &mut TranslationEasingState), With<Collider>>,
    end: Res<StepEnd>,
    ticks: SystemChangeTick,
) {
    for (transform, mut easing) in &mut eased {
        if transform.last_changed().is_newer_than(end.0, ticks.this_run()) {
            easing.start = Some(transform.translation);
        }
    }
}
