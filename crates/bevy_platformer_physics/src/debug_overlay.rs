//! Debug overlay (feature `debug-overlay`): gizmos for colliders and slopes, object (visual)
//! rects, contacts with their normals and the slope foot samples, toggled at run time from [`DebugOverlay`]. Default keys:
//! C toggles colliders, R object rects, N contacts; rebind them in [`DebugOverlay::keys`].
//!
//! Runs in `PostUpdate`, reading the state the physics step left; it changes nothing. What it
//! draws is also kept in [`DebugOverlayShapes`], so a headless app (no gizmo plugin) can inspect it.

use bevy::color::palettes::css;
use bevy::gizmos::config::GizmoConfigStore;
use bevy::prelude::*;

use crate::broad_phase::BroadPhase;
use crate::broad_phase::grid::PieceKind;
use crate::components::SlopeSegment;
use crate::components::{BodyKind, Collider, ContactDirection, Contacts, InvalidBody, MovementState};

/// The visual rect of an entity (its picture), which the game sets and the overlay draws with R.
/// It is separate from the collider on purpose: a character's collider is usually narrower than its
/// picture.
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy_platformer_physics::prelude::*;
///
/// let mut world = World::new();
/// // The picture is 16 × 24, the collider 10 × 22: R shows one, C the other.
/// world.spawn((
///     Dynamic,
///     Collider::rectangle(10.0, 22.0),
///     ObjectRect {
///         size: Vec2::new(16.0, 24.0),
///         offset: Vec2::new(0.0, 1.0),
///     },
/// ));
/// ```
#[derive(Component, Clone, Copy, Debug, PartialEq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug)]
pub struct ObjectRect {
    /// Width and height, in pixels.
    pub size: Vec2,
    /// Offset of its centre from the translation, in pixels.
    pub offset: Vec2,
}

/// Keys that toggle the overlay's layers.
#[derive(Clone, Copy, Debug, PartialEq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct DebugOverlayKeys {
    /// Toggles [`DebugOverlay::colliders`].
    pub colliders: KeyCode,
    /// Toggles [`DebugOverlay::object_rects`].
    pub object_rects: KeyCode,
    /// Toggles [`DebugOverlay::contacts`].
    pub contacts: KeyCode,
}

impl Default for DebugOverlayKeys {
    fn default() -> Self {
        Self {
            colliders: KeyCode::KeyC,
            object_rects: KeyCode::KeyR,
            contacts: KeyCode::KeyN,
        }
    }
}

/// What the overlay draws.
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy_platformer_physics::prelude::*;
///
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::default()));
/// // Start with the collider outlines shown; C, R and N toggle the layers while the game runs.
/// app.insert_resource(DebugOverlay {
///     colliders: true,
///     ..default()
/// });
/// ```
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Resource, Debug, Default)]
pub struct DebugOverlay {
    /// Collider boxes: static grey, kinematic blue, dynamic green, invalid red.
    pub colliders: bool,
    /// [`ObjectRect`]s, yellow.
    pub object_rects: bool,
    /// Contacts of dynamic bodies: a short line along each contact normal, and a cross where the
    /// supporting slope's surface was sampled (the uphill foot).
    pub contacts: bool,
    /// Keys that toggle the layers.
    pub keys: DebugOverlayKeys,
}

/// Adds the overlay; everything starts hidden.
#[derive(Default)]
pub struct DebugOverlayPlugin;

impl Plugin for DebugOverlayPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<DebugOverlay>()
            .init_resource::<DebugOverlayShapes>()
            .register_type::<DebugOverlay>()
            .register_type::<ObjectRect>()
            .add_systems(
                PostUpdate,
                (
                    toggle_overlay,
                    collect_shapes,
                    // Without bevy's gizmo plugin (a headless app) the shapes are still collected.
                    draw_shapes.run_if(resource_exists::<GizmoConfigStore>),
                )
                    .chain(),
            );
    }
}

fn toggle_overlay(keys: Option<Res<ButtonInput<KeyCode>>>, mut overlay: ResMut<DebugOverlay>) {
    let Some(keys) = keys else { return };
    let bindings = overlay.keys;
    if keys.just_pressed(bindings.colliders) {
        overlay.colliders = !overlay.colliders;
    }
    if keys.just_pressed(bindings.object_rects) {
        overlay.object_rects = !overlay.object_rects;
    }
    if keys.just_pressed(bindings.contacts) {
        overlay.contacts = !overlay.contacts;
    }
}

/// A shape of the overlay, in world pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OverlayShape {
    /// An outlined rectangle.
    Rect {
        /// Centre.
        center: Vec2,
        /// Width and height.
        size: Vec2,
        /// Outline colour.
        color: Color,
    },
    /// A line segment.
    Line {
        /// Start.
        from: Vec2,
        /// End.
        to: Vec2,
        /// Colour.
        color: Color,
    },
}

/// The shapes the overlay drew in the latest frame: what is on screen, for tests and tools.
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// # use log::debug; // in `bevy::prelude` with Bevy's `bevy_log` feature
/// use bevy_platformer_physics::prelude::*;
///
/// // A test, or a tool, reads what the overlay drew.
/// fn count_shapes(shapes: Res<DebugOverlayShapes>) {
///     debug!("{} shapes on screen", shapes.0.len());
/// }
/// # App::new().add_systems(Last, count_shapes);
/// ```
#[derive(Resource, Clone, Debug, Default)]
pub struct DebugOverlayShapes(pub Vec<OverlayShape>);

fn collect_shapes(
    overlay: Res<DebugOverlay>,
    broad_phase: Res<BroadPhase>,
    // (A slope's own `Collider`, which `Sensor` requires, is not its shape: the line below is.)
    colliders: Query<(Entity, &Transform, &Collider, Has<InvalidBody>), Without<SlopeSegment>>,
    rects: Query<(&Transform, &ObjectRect)>,
    contacts: Query<(Entity, &Contacts, Option<&MovementState>)>,
    slopes: Query<Entity, With<SlopeSegment>>,
    mut shapes: ResMut<DebugOverlayShapes>,
) {
    shapes.0.clear();
    if overlay.colliders {
        for (entity, transform, collider, invalid) in &colliders {
            let color = match broad_phase.get(entity).map(|p| p.kind) {
                _ if invalid => css::RED,
                Some(BodyKind::Dynamic) => css::LIME,
                Some(BodyKind::Kinematic) => css::DEEP_SKY_BLUE,
                _ => css::LIGHT_GRAY,
            };
            if collider.problem().is_none() {
                shapes.0.push(OverlayShape::Rect {
                    center: transform.translation.truncate() + collider.offset,
                    size: collider.size,
                    color: color.into(),
                });
            }
        }
        for (_, grid) in broad_phase.grids() {
            let mut pieces = Vec::new();
            grid.pieces_in(&grid.bounds(), &mut pieces);
            for piece in pieces {
                let color = if piece.kind == PieceKind::OneWay {
                    css::TAN
                } else {
                    css::LIGHT_GRAY
                };
                shapes.0.push(match piece.kind {
                    PieceKind::Slope(shape) => OverlayShape::Line {
                        from: shape.left,
                        to: shape.right,
                        color: color.into(),
                    },
                    _ => OverlayShape::Rect {
                        center: piece.aabb.center(),
                        size: piece.aabb.size(),
                        color: color.into(),
                    },
                });
            }
        }
        for slope in &slopes {
            if let Some(shape) = broad_phase.get(slope).and_then(|p| p.slope_shape()) {
                shapes.0.push(OverlayShape::Line {
                    from: shape.left,
                    to: shape.right,
                    color: css::LIGHT_GRAY.into(),
                });
            }
        }
    }
    if overlay.object_rects {
        for (transform, rect) in &rects {
            shapes.0.push(OverlayShape::Rect {
                center: transform.translation.truncate() + rect.offset,
                size: rect.size,
                color: css::YELLOW.into(),
            });
        }
    }
    if overlay.contacts {
        for (entity, body_contacts, state) in &contacts {
            let Some(body) = broad_phase.get(entity) else { continue };
            // The slope's foot sample: the uphill bottom corner, where the surface was sampled.
            if let Some(shape) = state.and_then(|s| s.supporting_slope).map(|s| s.shape) {
                let foot = Vec2::new(
                    if shape.rises_right() {
                        body.aabb.max.x
                    } else {
                        body.aabb.min.x
                    },
                    shape.surface_y(&body.aabb),
                );
                for (a, b) in [
                    (Vec2::new(-2.0, -2.0), Vec2::new(2.0, 2.0)),
                    (Vec2::new(-2.0, 2.0), Vec2::new(2.0, -2.0)),
                ] {
                    shapes.0.push(OverlayShape::Line {
                        from: foot + a,
                        to: foot + b,
                        color: css::AQUA.into(),
                    });
                }
            }
            let (min, max, center) = (body.aabb.min, body.aabb.max, body.aabb.center());
            for contact in body_contacts.iter() {
                let (anchor, normal) = match contact.direction {
                    ContactDirection::Down => (Vec2::new(center.x, min.y), Vec2::Y),
                    ContactDirection::Up => (Vec2::new(center.x, max.y), Vec2::NEG_Y),
                    ContactDirection::Left => (Vec2::new(min.x, center.y), Vec2::X),
                    ContactDirection::Right => (Vec2::new(max.x, center.y), Vec2::NEG_X),
                };
                let color = if contact.sensor { css::ORANGE } else { css::MAGENTA };
                shapes.0.push(OverlayShape::Line {
                    from: anchor,
                    to: anchor + normal * 8.0,
                    color: color.into(),
                });
            }
        }
    }
}

fn draw_shapes(shapes: Res<DebugOverlayShapes>, mut gizmos: Gizmos) {
    for shape in &shapes.0 {
        match *shape {
            OverlayShape::Rect { center, size, color } => {
                gizmos.rect_2d(Isometry2d::from_translation(center), size, color);
            }
            OverlayShape::Line { from, to, color } => {
                gizmos.line_2d(from, to, color);
                gizmos.circle_2d(Isometry2d::from_translation(from), 1.5, color);
            }
        }
    }
}
