//! Dynamic bodies block one another or pass through one another (`BodyCollisions`, globally in
//! `PhysicsConfig` and per body), with contact events either way, in every mode.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;

const SIZE: Vec2 = Vec2::new(12.0, 24.0);
/// How far two bodies walking into each other overlap at most: the discrete mode pushes each half
/// of the way out every step, while both walk on into the other.
const PRESS: f32 = 1.0;

/// A floor and two bodies 40 px apart walking toward each other; `setup` changes the app or the
/// bodies before they start.
fn walk_toward_each_other(mode: CollisionMode, setup: impl FnOnce(&mut App, Entity, Entity)) -> (App, Entity, Entity) {
    let mut app = app();
    collect::<ContactStarted>(&mut app);
    collect::<ContactEnded>(&mut app);
    spawn_box(&mut app, Vec2::new(-300.0, -16.0), Vec2::new(600.0, 16.0));
    let a = spawn_body(&mut app, Vec2::new(-20.0, 0.0), SIZE, mode);
    let b = spawn_body(&mut app, Vec2::new(20.0, 0.0), SIZE, mode);
    setup(&mut app, a, b);
    for body in [a, b] {
        walker(&mut app, body, 60.0);
    }
    input(&mut app, a).horizontal = 1.0;
    input(&mut app, b).horizontal = -1.0;
    tick(&mut app, 120);
    (app, a, b)
}

/// Whether the pair (a, b) got a start and an end message, on both sides.
fn started_and_ended(app: &App, a: Entity, b: Entity) -> (bool, bool) {
    let (ab, ba) = (contact_event_counts(app, a, b), contact_event_counts(app, b, a));
    (ab.0 + ba.0 == 2, ab.1 + ba.1 == 2)
}

#[test]
fn bodies_block_each_other_by_default() {
    for mode in MODES {
        let (app, a, b) = walk_toward_each_other(mode, |_, _, _| {});
        let (left, right) = (aabb(&app, a), aabb(&app, b));
        assert!(
            left.max.x <= right.min.x + PRESS,
            "{mode:?}: they stop against each other: {left:?} {right:?}"
        );
        assert!(
            contacts(&app, a).with(b).is_some_and(|c| !c.sensor),
            "{mode:?}: a solid contact"
        );
    }
}

#[test]
fn with_overlap_as_the_default_they_pass_through_each_other_and_report_the_contact() {
    for mode in MODES {
        let (app, a, b) = walk_toward_each_other(mode, |app, _, _| {
            app.world_mut().resource_mut::<PhysicsConfig>().body_collisions = BodyCollisions::Overlap;
        });
        let (left, right) = (aabb(&app, a), aabb(&app, b));
        assert!(
            left.min.x > right.max.x,
            "{mode:?}: they crossed: a {left:?}, b {right:?}"
        );
        assert_eq!(
            started_and_ended(&app, a, b),
            (true, true),
            "{mode:?}: the contact started and ended, on both sides"
        );
    }
}

#[test]
fn a_body_of_its_own_choice_wins_over_the_default() {
    for mode in MODES {
        // The default blocks; one body overlaps: they pass.
        let (app, a, b) = walk_toward_each_other(mode, |app, a, _| {
            app.world_mut().entity_mut(a).insert(BodyCollisions::Overlap);
        });
        assert!(
            aabb(&app, a).min.x > aabb(&app, b).max.x,
            "{mode:?}: one overlapping body passes"
        );
        // The default overlaps; both bodies block: they stop.
        let (app, a, b) = walk_toward_each_other(mode, |app, a, b| {
            app.world_mut().resource_mut::<PhysicsConfig>().body_collisions = BodyCollisions::Overlap;
            app.world_mut().entity_mut(a).insert(BodyCollisions::Block);
            app.world_mut().entity_mut(b).insert(BodyCollisions::Block);
        });
        assert!(
            aabb(&app, a).max.x <= aabb(&app, b).min.x + PRESS,
            "{mode:?}: two blocking bodies stop"
        );
    }
}

#[test]
fn an_overlapping_body_never_stands_on_another() {
    for mode in MODES {
        let mut app = app();
        app.world_mut().resource_mut::<PhysicsConfig>().body_collisions = BodyCollisions::Overlap;
        spawn_box(&mut app, Vec2::new(-100.0, -16.0), Vec2::new(200.0, 16.0));
        let below = spawn_body(&mut app, Vec2::ZERO, SIZE, mode);
        let above = spawn_body(&mut app, Vec2::new(0.0, 60.0), SIZE, mode);
        tick(&mut app, 100);
        assert!(
            aabb(&app, above).min.y.abs() < 0.01 && aabb(&app, below).min.y.abs() < 0.01,
            "{mode:?}: both stand on the floor, one inside the other: {:?} {:?}",
            aabb(&app, above),
            aabb(&app, below)
        );
        assert!(
            contacts(&app, above).with(below).is_some_and(|c| c.sensor),
            "{mode:?}: an interaction contact"
        );
        // Walls and floors still stop it.
        assert!(contacts(&app, above).on_floor(), "{mode:?}");
    }
}
