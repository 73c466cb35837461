//! SyncColliders: the step's `dt`, validation of bad input, and the broad-phase mirror of colliders
//! changed outside the plugin (spawned, teleported, resized, re-flagged) and removed.

use bevy::prelude::*;

use crate::broad_phase::{BroadPhase, ColliderProxy};
use crate::components::SlopeSegment;
use crate::components::*;
use crate::config::{PhysicsConfig, PhysicsStepLength};
use crate::messages::ContactEnded;
use crate::schedule::{PlatformerSystems, physics_schedule};
use crate::step::contact_events::ReportedContacts;
use crate::step::movement::MovedAt;
use crate::tile_grid::TileGrid;

/// Sets [`PhysicsStepLength::dt`] from the schedule's clock, clamped to [`PhysicsConfig::max_dt`].
pub(crate) fn update_step_dt(time: Res<Time>, config: Res<PhysicsConfig>, mut step: ResMut<PhysicsStepLength>) {
    let dt = time.delta_secs();
    step.dt = if dt.is_finite() && dt > 0.0 {
        dt.min(config.max_dt.max(0.0))
    } else {
        0.0
    };
}

type SyncData = (
    Entity,
    &'static Transform,
    &'static Collider,
    &'static CollisionLayers,
    (Has<Dynamic>, Has<Kinematic>, Has<OneWayPlatform>, Has<Sensor>),
    Option<&'static Velocity>,
    Option<&'static PathFollower>,
    Option<&'static InvalidBody>,
);

/// A collider whose shape or layers may have changed. (A changed path is found by a query of
/// the path followers alone, and an added marker by [`on_marker_added`]: every filter here is one
/// more check of every collider, every step, and the static ones can be thousands.)
type EditedFilter = Or<(Changed<Collider>, Changed<CollisionLayers>)>;

/// Colliders that got a marker changing what they are (dynamic, kinematic, one-way, sensor) since
/// the last [`sync_colliders`].
#[derive(Resource, Default, Debug)]
pub(crate) struct MarkedColliders(Vec<Entity>);

/// Notes an entity that became dynamic, kinematic, one-way or a sensor, for the next sync.
pub(crate) fn on_marker_added(
    added: On<Add, (Dynamic, Kinematic, OneWayPlatform, Sensor)>,
    mut marked: ResMut<MarkedColliders>,
) {
    marked.0.push(added.entity);
}

/// What SyncColliders reads of a body (a collider with a velocity) to tell whether it moved or
/// its velocity changed, and who did it. (The change ticks are read once, here, not also by a
/// `Changed` filter: every body the plugin moves changed, every step.)
type MovedData = (Entity, Ref<'static, Transform>, Ref<'static, Velocity>);

/// A collider without a velocity (a static one) that something moved: one check per collider.
type MovedFixedFilter = (With<Collider>, Without<Velocity>, Changed<Transform>);

/// Why a collider's entity cannot be simulated.
fn problem(
    transform: &Transform,
    collider: &Collider,
    velocity: Option<&Velocity>,
    path: Option<&PathFollower>,
) -> Option<String> {
    if let Some(problem) = translation_problem(transform) {
        return Some(problem);
    }
    if let Some(problem) = collider.problem() {
        return Some(problem);
    }
    if let Some(v) = velocity
        && !v.is_finite()
    {
        return Some(format!("velocity {} is not finite", v.0));
    }
    path.and_then(PathFollower::problem)
}

/// Why an entity's translation cannot be simulated.
fn translation_problem(transform: &Transform) -> Option<String> {
    (!transform.translation.is_finite()).then(|| format!("translation {} is not finite", transform.translation))
}

/// Records whether `entity` (a `what`, for the log) can be simulated. With a `problem` it leaves the
/// broad phase and gets an [`InvalidBody`], with one warning, until fixed; without one a stale
/// marker comes off. Returns whether it can be simulated.
fn check_validity(
    commands: &mut Commands,
    broad_phase: &mut BroadPhase,
    entity: Entity,
    what: &str,
    problem: Option<String>,
    invalid: Option<&InvalidBody>,
) -> bool {
    match problem {
        Some(reason) => {
            broad_phase.remove(entity);
            if invalid.is_none_or(|i| i.reason != reason) {
                log::warn!(
                    "bevy_platformer_physics: {what} {entity}: {reason}; it is left out of the simulation until fixed"
                );
                commands.entity(entity).insert(InvalidBody { reason });
            }
            false
        }
        None => {
            if invalid.is_some() {
                log::info!("bevy_platformer_physics: {what} {entity} is valid again and back in the simulation");
                commands.entity(entity).remove::<InvalidBody>();
            }
            true
        }
    }
}

/// Whether the broad phase already holds this collider at this position, with a usable velocity:
/// the usual case for a body that only the plugin's own stages moved since the last step (they
/// keep its proxy up to date). An edit of anything else is found by the [`EditedFilter`] query. A
/// finite box equal to the proxy's means a finite translation and a usable collider.
fn already_mirrored(
    broad_phase: &BroadPhase,
    entity: Entity,
    transform: &Transform,
    collider: &Collider,
    velocity: Option<&Velocity>,
) -> bool {
    velocity.is_none_or(|v| v.0.is_finite())
        && broad_phase.get(entity).is_some_and(|proxy| {
            proxy.aabb == collider.aabb(transform.translation.truncate())
                && proxy.part == 0
                && proxy.slope.is_none()
                && collider.problem_free()
        })
}

fn sync_one(
    commands: &mut Commands,
    broad_phase: &mut BroadPhase,
    item: <SyncData as bevy::ecs::query::QueryData>::Item<'_, '_>,
) {
    let (entity, transform, collider, layers, (dynamic, kinematic, one_way, sensor), velocity, path, invalid) = item;
    let problem = problem(transform, collider, velocity, path);
    if !check_validity(commands, broad_phase, entity, "entity", problem, invalid) {
        return;
    }
    let kind = if dynamic {
        BodyKind::Dynamic
    } else if kinematic {
        BodyKind::Kinematic
    } else {
        BodyKind::Static
    };
    broad_phase.upsert(ColliderProxy {
        entity,
        aabb: collider.aabb(transform.translation.truncate()),
        kind,
        one_way,
        sensor,
        layers: *layers,
        slope: None,
        part: 0,
    });
}

/// Mirrors changed colliders into the broad phase, validating them on the way. Edits are looked
/// for in every collider, and moves in every moved one; a move that the broad phase already
/// mirrors (the plugin made it) costs one comparison. A slope's entity is [`sync_slopes`]'s, even
/// with a `Collider` (which `Sensor` requires): its shape is the segment's.
#[allow(clippy::too_many_arguments)]
pub(crate) fn sync_colliders(
    mut commands: Commands,
    mut broad_phase: ResMut<BroadPhase>,
    edited: Query<Entity, (With<Collider>, EditedFilter)>,
    mut marked: ResMut<MarkedColliders>,
    new_paths: Query<Entity, (With<Collider>, Changed<PathFollower>)>,
    moved: Query<MovedData, With<Collider>>,
    moved_fixed: Query<Entity, MovedFixedFilter>,
    moved_at: Res<MovedAt>,
    all: Query<SyncData, (Without<ColliderDisabled>, Without<SlopeSegment>)>,
    mut removed_one_way: RemovedComponents<OneWayPlatform>,
    mut removed_sensor: RemovedComponents<Sensor>,
    mut removed_dynamic: RemovedComponents<Dynamic>,
    mut removed_kinematic: RemovedComponents<Kinematic>,
) {
    for entity in edited.iter().chain(&new_paths).chain(marked.0.drain(..)) {
        if let Ok(item) = all.get(entity) {
            sync_one(&mut commands, &mut broad_phase, item);
        }
    }
    let moved_bodies = moved.iter().filter_map(|(entity, transform, velocity)| {
        // Moved by the last movement pass and by nothing since: it mirrored the move itself.
        let by_the_pass = transform.last_changed() == moved_at.0
            && velocity.last_changed() == moved_at.0
            && velocity.0.is_finite()
            && transform.translation.is_finite();
        (!by_the_pass && (transform.is_changed() || velocity.is_changed())).then_some(entity)
    });
    for entity in moved_bodies.chain(&moved_fixed) {
        let Ok(item) = all.get(entity) else { continue };
        let (_, transform, collider, _layers, _markers, velocity, ..) = item;
        if !already_mirrored(&broad_phase, entity, transform, collider, velocity) {
            sync_one(&mut commands, &mut broad_phase, item);
        }
    }
    // A removed marker changes the proxy's flags; the entity may also be gone altogether.
    let removed: Vec<Entity> = removed_one_way
        .read()
        .chain(removed_sensor.read())
        .chain(removed_dynamic.read())
        .chain(removed_kinematic.read())
        .collect();
    for entity in removed {
        if let Ok(item) = all.get(entity) {
            sync_one(&mut commands, &mut broad_phase, item);
        }
    }
}

type SlopeData = (
    Entity,
    &'static Transform,
    &'static SlopeSegment,
    &'static CollisionLayers,
    Has<Sensor>,
    Option<&'static InvalidBody>,
);

type SlopeChanged = Or<(
    Changed<Transform>,
    Changed<SlopeSegment>,
    Changed<CollisionLayers>,
    Added<Sensor>,
)>;

/// Mirrors changed slopes into the broad phase, validating them on the way. A `Sensor` slope is a
/// trigger: it is never stood on, only touched (section 18 of the physics rules).
pub(crate) fn sync_slopes(
    mut commands: Commands,
    mut broad_phase: ResMut<BroadPhase>,
    changed: Query<Entity, (With<SlopeSegment>, SlopeChanged, Without<ColliderDisabled>)>,
    slopes: Query<SlopeData, Without<ColliderDisabled>>,
    mut removed_sensor: RemovedComponents<Sensor>,
) {
    let removed: Vec<Entity> = removed_sensor.read().collect();
    for entity in changed.iter().chain(removed) {
        let Ok((entity, transform, slope, layers, sensor, invalid)) = slopes.get(entity) else {
            continue;
        };
        let problem = translation_problem(transform).or_else(|| slope.problem());
        if !check_validity(&mut commands, &mut broad_phase, entity, "slope", problem, invalid) {
            continue;
        }
        let shape = slope.shape(transform.translation.truncate());
        broad_phase.upsert(ColliderProxy {
            entity,
            aabb: shape.rect(),
            kind: BodyKind::Static,
            one_way: false,
            sensor,
            layers: *layers,
            slope: Some(shape.rise()),
            part: 0,
        });
    }
}

type GridData = (
    Entity,
    &'static Transform,
    &'static TileGrid,
    &'static CollisionLayers,
    Option<&'static InvalidBody>,
);
type GridChanged = Or<(Changed<Transform>, Changed<TileGrid>, Changed<CollisionLayers>)>;

/// Mirrors changed tile grids (moved, edited, re-layered) into the broad phase, with their runs
/// rebuilt: an edited cell takes effect at the next step.
pub(crate) fn sync_grids(
    mut commands: Commands,
    mut broad_phase: ResMut<BroadPhase>,
    changed: Query<GridData, (GridChanged, Without<ColliderDisabled>)>,
) {
    for (entity, transform, grid, layers, invalid) in &changed {
        let problem = translation_problem(transform).or_else(|| grid.problem());
        if check_validity(&mut commands, &mut broad_phase, entity, "tile grid", problem, invalid) {
            let data = crate::broad_phase::GridData::new(grid.clone(), transform.translation.truncate(), *layers);
            broad_phase.upsert_grid(entity, data);
        }
    }
}

/// Keeps the broad phase and every body's contacts free of a collider, slope or tile grid that is
/// removed or despawned.
pub(crate) fn on_collider_removed(
    removed: On<Remove, (Collider, SlopeSegment, TileGrid)>,
    mut commands: Commands,
    mut broad_phase: ResMut<BroadPhase>,
    mut bodies: Query<(Entity, &mut Contacts, &mut ReportedContacts)>,
    mut ended: MessageWriter<ContactEnded>,
) {
    take_out(removed.entity, &mut commands, &mut broad_phase, &mut bodies, &mut ended);
}

/// Takes a collider, slope or tile grid that got [`ColliderDisabled`] out of the world.
pub(crate) fn on_collider_disabled(
    disabled: On<Add, ColliderDisabled>,
    mut commands: Commands,
    mut broad_phase: ResMut<BroadPhase>,
    mut bodies: Query<(Entity, &mut Contacts, &mut ReportedContacts)>,
    mut ended: MessageWriter<ContactEnded>,
) {
    take_out(
        disabled.entity,
        &mut commands,
        &mut broad_phase,
        &mut bodies,
        &mut ended,
    );
}

/// Puts an entity that loses [`ColliderDisabled`] back at the next SyncColliders, as it is then.
pub(crate) fn on_collider_enabled(
    enabled: On<Remove, ColliderDisabled>,
    mut marked: ResMut<MarkedColliders>,
    mut slopes: Query<&mut SlopeSegment>,
    mut grids: Query<&mut TileGrid>,
) {
    let entity = enabled.entity;
    marked.0.push(entity);
    // Slopes and grids are mirrored when they change.
    if let Ok(mut slope) = slopes.get_mut(entity) {
        slope.set_changed();
    }
    if let Ok(mut grid) = grids.get_mut(entity) {
        grid.set_changed();
    }
}

/// Removes `gone` from the broad phase and from every body's contacts, and tells the colliders
/// that touched it that the contact ended.
fn take_out(
    gone: Entity,
    commands: &mut Commands,
    broad_phase: &mut BroadPhase,
    bodies: &mut Query<(Entity, &mut Contacts, &mut ReportedContacts)>,
    ended: &mut MessageWriter<ContactEnded>,
) {
    broad_phase.remove(gone);
    // (survivor, side of the survivor on which `gone` was)
    let mut survivors: Vec<(Entity, ContactDirection)> = Vec::new();
    if let Ok((_, mut own, mut reported)) = bodies.get_mut(gone) {
        own.list.clear();
        survivors.extend(reported.iter().map(|(other, side)| (other, side.opposite())));
        *reported = ReportedContacts::default();
    }
    for (entity, mut contacts, mut reported) in bodies.iter_mut() {
        if entity == gone {
            continue;
        }
        if contacts.with(gone).is_some() {
            contacts.list.retain(|c| c.entity != gone);
        }
        if let Some(side) = reported.forget(gone)
            && !survivors.iter().any(|&(e, _)| e == entity)
        {
            survivors.push((entity, side));
        }
    }
    for (entity, direction) in survivors {
        let event = ContactEnded {
            entity,
            other: gone,
            direction,
        };
        ended.write(event);
        commands.trigger(event);
    }
}

/// The step's `dt` and the colliders mirrored into the broad phase
/// ([`PlatformerSystems::SyncColliders`]): changed, added, removed, disabled and enabled ones.
pub struct SyncCollidersPlugin;

impl Plugin for SyncCollidersPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<MarkedColliders>();
        app.add_systems(
            physics_schedule(app),
            (update_step_dt, sync_colliders, sync_slopes, sync_grids)
                .chain()
                .in_set(PlatformerSystems::SyncColliders),
        );
        app.add_observer(on_collider_removed);
        app.add_observer(on_collider_disabled);
        app.add_observer(on_collider_enabled);
        app.add_observer(on_marker_added);
    }
}
