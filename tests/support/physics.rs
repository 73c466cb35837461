//! Shared helpers for the headless behaviour tests: an `App` with `MinimalPlugins`, one fixed
//! physics step per `app.update()`, and small spawn / read helpers.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_platformer_physics::geometry::Aabb;
use bevy_platformer_physics::prelude::*;

/// The fixed step, seconds (100 Hz).
pub const DT: f32 = 0.01;
/// Distances closer than this count as equal, in pixels.
pub const EPS: f32 = 1e-3;

/// A headless app that runs exactly one physics step per `update()`.
pub fn app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::default().with_fixed_hz(100.0)));
    app.insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    // The first update runs Startup and starts the clocks, without a fixed step.
    app.update();
    app
}

/// Runs `n` physics steps.
pub fn tick(app: &mut App, n: usize) {
    for _ in 0..n {
        app.update();
    }
}

/// A static box with its bottom-left corner at `min`.
pub fn spawn_box(app: &mut App, min: Vec2, size: Vec2) -> Entity {
    let center = min + size * 0.5;
    app.world_mut()
        .spawn((
            Collider::rectangle(size.x, size.y),
            Transform::from_translation(center.extend(0.0)),
        ))
        .id()
}

/// A dynamic body of `size` whose bottom-centre is at `feet`.
pub fn spawn_body(app: &mut App, feet: Vec2, size: Vec2, mode: CollisionMode) -> Entity {
    let center = feet + Vec2::new(0.0, size.y * 0.5);
    app.world_mut()
        .spawn((
            Dynamic,
            mode,
            Collider::rectangle(size.x, size.y),
            Transform::from_translation(center.extend(0.0)),
        ))
        .id()
}

/// The world box of `entity`'s collider.
pub fn aabb(app: &App, entity: Entity) -> Aabb {
    let world = app.world();
    let collider = world.get::<Collider>(entity).expect("entity has a collider");
    let transform = world.get::<Transform>(entity).expect("entity has a transform");
    collider.aabb(transform.translation.truncate())
}

/// Velocity of `entity`.
pub fn velocity(app: &App, entity: Entity) -> Vec2 {
    app.world().get::<Velocity>(entity).expect("entity has a velocity").0
}

/// Contacts of `entity`.
pub fn contacts(app: &App, entity: Entity) -> Contacts {
    app.world()
        .get::<Contacts>(entity)
        .expect("entity has contacts")
        .clone()
}

/// Mutable movement input of `entity`.
pub fn input(app: &mut App, entity: Entity) -> Mut<'_, MovementInput> {
    app.world_mut()
        .get_mut::<MovementInput>(entity)
        .expect("entity has movement input")
}

/// Sets `entity`'s movement parameters.
pub fn set_movement(app: &mut App, entity: Entity, movement: MovementTuning) {
    *app.world_mut()
        .get_mut::<MovementTuning>(entity)
        .expect("entity has movement") = movement;
}

/// Sets `entity`'s velocity.
pub fn set_velocity(app: &mut App, entity: Entity, v: Vec2) {
    app.world_mut()
        .get_mut::<Velocity>(entity)
        .expect("entity has a velocity")
        .0 = v;
}

/// The three collision modes, for tests that must hold in each.
pub const MODES: [CollisionMode; 3] = [
    CollisionMode::Continuous,
    CollisionMode::Discrete,
    CollisionMode::AxisSeparated,
];

/// Collects every message of type `M` sent so far into a resource, for assertions.
#[derive(Resource)]
pub struct Collected<M: Message + Clone>(pub Vec<M>);

/// Starts collecting messages `M` in `Collected<M>`.
pub fn collect<M: Message + Clone>(app: &mut App) {
    app.insert_resource(Collected::<M>(Vec::new()));
    app.add_systems(Last, |mut reader: MessageReader<M>, mut out: ResMut<Collected<M>>| {
        out.0.extend(reader.read().cloned());
    });
}

/// The messages `M` collected so far.
pub fn collected<M: Message + Clone>(app: &App) -> Vec<M> {
    app.world().resource::<Collected<M>>().0.clone()
}

/// How many `ContactStarted` and `ContactEnded` messages `entity` got about `other` so far (the
/// messages must be collected).
pub fn contact_event_counts(app: &App, entity: Entity, other: Entity) -> (usize, usize) {
    let about = |e: Entity, o: Entity| (e, o) == (entity, other);
    let started = collected::<ContactStarted>(app)
        .iter()
        .filter(|m| about(m.entity, m.other))
        .count();
    let ended = collected::<ContactEnded>(app)
        .iter()
        .filter(|m| about(m.entity, m.other))
        .count();
    (started, ended)
}

/// A slope between two world points.
pub fn spawn_slope(app: &mut App, a: Vec2, b: Vec2) -> Entity {
    app.world_mut()
        .spawn((SlopeSegment::new(a, b), Transform::default()))
        .id()
}

/// Makes `body` a walker that reaches `speed` px/s in one step and stops in one step.
pub fn walker(app: &mut App, body: Entity, speed: f32) {
    set_movement(
        app,
        body,
        MovementTuning {
            acceleration: 1.0e6,
            deceleration: 1.0e6,
            skid_deceleration: 1.0e6,
            max_speed: Vec2::new(speed, 2000.0),
            min_speed: 1.0,
            gravity_scale: 1.0,
        },
    );
}

/// Height of the surface of `slope` under `entity`'s uphill foot.
pub fn surface_under(app: &App, entity: Entity, slope: Entity) -> f32 {
    let segment = app.world().get::<SlopeSegment>(slope).expect("a slope");
    let origin = app.world().get::<Transform>(slope).unwrap().translation.truncate();
    segment.shape(origin).surface_y(&aabb(app, entity))
}

/// splitmix64: a small deterministic generator, so a seed names a whole scenario.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// In `[0, 1)`.
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// In `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    /// An integer in `[lo, hi)`.
    pub fn int(&mut self, lo: i32, hi: i32) -> i32 {
        lo + (self.next_u64() % (hi - lo) as u64) as i32
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f32) -> bool {
        self.unit() < p
    }

    /// In `[0, n)`.
    pub fn below(&mut self, n: u32) -> u32 {
        (self.next_u64() % u64::from(n)) as u32
    }
}

/// How far inside a solid a body may end a step: rounding, not penetration, px.
pub const INSIDE_TOLERANCE: f32 = 0.05;

/// The static solid (a box, or a solid cell of a tile grid; not a one-way platform, sensor or
/// slope) that `area` overlaps by more than `tolerance` on both axes, if any.
pub fn solid_inside(app: &App, area: &Aabb, tolerance: f32) -> Option<ColliderHit> {
    let inner = area.grown(-tolerance);
    spatial_query(app)
        .overlap_area(inner, &QueryFilter::default())
        .into_iter()
        .find(|hit| hit.kind == BodyKind::Static && !hit.one_way && hit.slope.is_none())
}

/// The physics world of `app`, as a system's [`SpatialQuery`] sees it.
pub fn spatial_query(app: &App) -> SpatialQuery<'_> {
    SpatialQuery::from_world(app.world()).expect("the physics plugins are added")
}

/// The box the physics world holds for the collider `entity` (the broad phase's copy, which is
/// what the step left: not the drawn, eased position).
pub fn physics_box(app: &App, entity: Entity) -> Aabb {
    spatial_query(app)
        .collider(entity, 0)
        .expect("a collider in the physics world")
        .aabb
}

/// Fails if `body` is inside a static solid by more than [`INSIDE_TOLERANCE`].
pub fn assert_not_inside(app: &App, body: Entity, label: &str) {
    let b = aabb(app, body);
    if let Some(solid) = solid_inside(app, &b, INSIDE_TOLERANCE) {
        panic!("{label}: {b:?} inside {solid:?}");
    }
}
