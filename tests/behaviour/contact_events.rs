//! Contact started / ended: once per contact, to both sides with opposite directions, as messages
//! and as entity events; despawning a collider ends its contacts and leaves no dead entity behind.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;

fn pair_events<M: Message + Clone>(
    events: &[M],
    key: impl Fn(&M) -> (Entity, Entity, ContactDirection),
) -> Vec<(Entity, Entity, ContactDirection)> {
    events.iter().map(key).collect()
}

/// Contact events as (entity, other, direction).
type PairEvents = Vec<(Entity, Entity, ContactDirection)>;

/// The events between `a` and `b`, in the order sent.
fn between(events: PairEvents, a: Entity, b: Entity) -> PairEvents {
    events
        .into_iter()
        .filter(|&(x, y, _)| (x, y) == (a, b) || (x, y) == (b, a))
        .collect()
}

/// The events between `a` and `b` (`a` on `b`'s left), and the order they must come in: once per
/// side, the smaller entity's first.
fn pair_between(events: PairEvents, a: Entity, b: Entity) -> (PairEvents, PairEvents) {
    let between = between(events, a, b);
    let (from_a, from_b) = ((a, b, ContactDirection::Right), (b, a, ContactDirection::Left));
    let expected = if a < b {
        vec![from_a, from_b]
    } else {
        vec![from_b, from_a]
    };
    (between, expected)
}

/// Asserts that each of `a` and `b` lists the other in its contacts.
fn assert_both_touch(app: &App, a: Entity, b: Entity, label: &str) {
    assert!(
        contacts(app, a).with(b).is_some() && contacts(app, b).with(a).is_some(),
        "{label}: both report the pair: {:?} / {:?}",
        contacts(app, a),
        contacts(app, b)
    );
}

#[test]
fn land_then_jump_sends_exactly_one_started_and_one_ended_per_side() {
    for mode in MODES {
        let mut app = app();
        collect::<ContactStarted>(&mut app);
        collect::<ContactEnded>(&mut app);
        let floor = spawn_box(&mut app, Vec2::new(-100.0, -16.0), Vec2::new(200.0, 16.0));
        let body = spawn_body(&mut app, Vec2::new(0.0, 30.0), Vec2::new(12.0, 24.0), mode);
        tick(&mut app, 100);
        let started = pair_events(&collected::<ContactStarted>(&app), |e| (e.entity, e.other, e.direction));
        assert_eq!(
            started.len(),
            2,
            "{mode:?}: one started per side while resting 100 steps: {started:?}"
        );
        assert!(started.contains(&(body, floor, ContactDirection::Down)), "{mode:?}");
        assert!(started.contains(&(floor, body, ContactDirection::Up)), "{mode:?}");
        assert!(
            collected::<ContactEnded>(&app).is_empty(),
            "{mode:?}: nothing ended while resting"
        );

        input(&mut app, body).jump = Some(300.0);
        tick(&mut app, 5);
        let ended = pair_events(&collected::<ContactEnded>(&app), |e| (e.entity, e.other, e.direction));
        assert_eq!(ended.len(), 2, "{mode:?}: one ended per side: {ended:?}");
        assert!(ended.contains(&(body, floor, ContactDirection::Down)), "{mode:?}");
        assert!(ended.contains(&(floor, body, ContactDirection::Up)), "{mode:?}");
        assert_eq!(
            collected::<ContactStarted>(&app).len(),
            2,
            "{mode:?}: no new start mid-air"
        );
    }
}

#[derive(Resource, Default)]
struct Observed(Vec<(&'static str, Entity, Entity)>);

#[test]
fn observers_see_entity_events_on_the_body() {
    let mut app = app();
    app.init_resource::<Observed>();
    let floor = spawn_box(&mut app, Vec2::new(-100.0, -16.0), Vec2::new(200.0, 16.0));
    let body = spawn_body(
        &mut app,
        Vec2::new(0.0, 10.0),
        Vec2::new(12.0, 24.0),
        CollisionMode::Continuous,
    );
    app.world_mut()
        .entity_mut(body)
        .observe(|event: On<ContactStarted>, mut seen: ResMut<Observed>| {
            seen.0.push(("started", event.entity, event.other));
        })
        .observe(|event: On<ContactEnded>, mut seen: ResMut<Observed>| {
            seen.0.push(("ended", event.entity, event.other));
        });
    tick(&mut app, 50);
    input(&mut app, body).jump = Some(300.0);
    tick(&mut app, 5);
    assert_eq!(
        app.world().resource::<Observed>().0,
        vec![("started", body, floor), ("ended", body, floor)]
    );
}

#[test]
fn despawning_a_touched_collider_ends_the_contact_and_leaves_no_dead_entity() {
    let mut app = app();
    collect::<ContactEnded>(&mut app);
    let floor = spawn_box(&mut app, Vec2::new(-100.0, -16.0), Vec2::new(200.0, 16.0));
    let coin = spawn_box(&mut app, Vec2::new(-2.0, 10.0), Vec2::new(4.0, 4.0));
    app.world_mut().entity_mut(coin).insert(Sensor);
    let body = spawn_body(
        &mut app,
        Vec2::new(0.0, 0.0),
        Vec2::new(12.0, 24.0),
        CollisionMode::Continuous,
    );
    tick(&mut app, 5);
    assert!(
        contacts(&app, body).with(coin).is_some_and(|c| c.sensor),
        "touching the coin"
    );
    assert!(contacts(&app, body).with(floor).is_some());

    app.world_mut().despawn(coin);
    assert!(contacts(&app, body).with(coin).is_none(), "gone from Contacts at once");
    tick(&mut app, 1);
    let ended = collected::<ContactEnded>(&app);
    assert_eq!(ended.len(), 1, "{ended:?}");
    assert_eq!(
        (ended[0].entity, ended[0].other),
        (body, coin),
        "only the survivor hears of it"
    );

    tick(&mut app, 4);
    assert!(contacts(&app, body).with(coin).is_none());
    assert_eq!(collected::<ContactEnded>(&app).len(), 1, "ended once, not again");

    // Despawning the floor under the body: it falls, and its contacts never name the floor again.
    app.world_mut().despawn(floor);
    assert!(contacts(&app, body).iter().all(|c| c.entity != floor));
    tick(&mut app, 10);
    assert!(aabb(&app, body).min.y < -0.5, "falls without the floor");
    assert!(
        contacts(&app, body)
            .iter()
            .all(|c| app.world().get_entity(c.entity).is_ok())
    );
}

#[test]
fn despawning_the_body_itself_ends_the_contacts_of_the_others() {
    let mut app = app();
    collect::<ContactEnded>(&mut app);
    let floor = spawn_box(&mut app, Vec2::new(-100.0, -16.0), Vec2::new(200.0, 16.0));
    let a = spawn_body(
        &mut app,
        Vec2::new(0.0, 0.0),
        Vec2::new(12.0, 24.0),
        CollisionMode::Continuous,
    );
    let b = spawn_body(
        &mut app,
        Vec2::new(12.0, 0.0),
        Vec2::new(12.0, 24.0),
        CollisionMode::Continuous,
    );
    input(&mut app, b).horizontal = -1.0;
    tick(&mut app, 10);
    assert!(contacts(&app, b).with(a).is_some(), "b pushes against a");
    app.world_mut().despawn(a);
    assert!(contacts(&app, b).with(a).is_none());
    tick(&mut app, 1);
    let ended = collected::<ContactEnded>(&app);
    assert!(ended.iter().any(|e| e.entity == b && e.other == a), "{ended:?}");
    assert!(
        ended.iter().all(|e| e.entity != a),
        "no message about the dead entity as the subject"
    );
    assert!(ended.iter().all(|e| e.other != floor));
}

#[test]
fn a_body_pressing_a_wall_and_standing_has_two_contacts_with_directions() {
    let mut app = app();
    let floor = spawn_box(&mut app, Vec2::new(-100.0, -16.0), Vec2::new(200.0, 16.0));
    let wall = spawn_box(&mut app, Vec2::new(20.0, 0.0), Vec2::new(16.0, 100.0));
    let body = spawn_body(
        &mut app,
        Vec2::new(0.0, 0.0),
        Vec2::new(12.0, 24.0),
        CollisionMode::Continuous,
    );
    input(&mut app, body).horizontal = 1.0;
    tick(&mut app, 60);
    let c = contacts(&app, body);
    assert_eq!(c.with(floor).map(|c| c.direction), Some(ContactDirection::Down));
    assert_eq!(c.with(wall).map(|c| c.direction), Some(ContactDirection::Right));
    assert!(c.on_floor() && c.on_wall() && !c.on_ceiling());
}

#[test]
fn two_bodies_pressing_each_other_are_one_contact_until_neither_touches() {
    let mut app = app();
    collect::<ContactStarted>(&mut app);
    collect::<ContactEnded>(&mut app);
    spawn_box(&mut app, Vec2::new(-200.0, -16.0), Vec2::new(400.0, 16.0));
    let size = Vec2::new(12.0, 24.0);
    let a = spawn_body(&mut app, Vec2::new(0.0, 0.0), size, CollisionMode::Continuous);
    let b = spawn_body(&mut app, Vec2::new(14.0, 0.0), size, CollisionMode::Continuous);
    input(&mut app, a).horizontal = 1.0;
    input(&mut app, b).horizontal = -1.0;
    tick(&mut app, 30);
    assert_both_touch(&app, a, b, "pressing");
    let started = between(
        pair_events(&collected::<ContactStarted>(&app), |e| (e.entity, e.other, e.direction)),
        a,
        b,
    );
    assert_eq!(
        started.len(),
        2,
        "one start per side although both bodies report it: {started:?}"
    );
    assert!(started.contains(&(a, b, ContactDirection::Right)) && started.contains(&(b, a, ContactDirection::Left)));

    // `a` stops pushing: only `b` reports the pair now, which still exists.
    input(&mut app, a).horizontal = 0.0;
    tick(&mut app, 10);
    assert!(contacts(&app, b).with(a).is_some(), "b still presses a");
    let ended = |app: &App| {
        between(
            pair_events(&collected::<ContactEnded>(app), |e| (e.entity, e.other, e.direction)),
            a,
            b,
        )
    };
    assert_eq!(ended(&app), vec![], "not ended while one side still touches");

    // `a` pushes again: the pair went on through `b`, so nothing starts.
    input(&mut app, a).horizontal = 1.0;
    tick(&mut app, 10);
    assert!(contacts(&app, a).with(b).is_some(), "a presses b again");
    let started_now = between(
        pair_events(&collected::<ContactStarted>(&app), |e| (e.entity, e.other, e.direction)),
        a,
        b,
    );
    assert_eq!(started_now, started, "the pair never ended: no second start");
    input(&mut app, a).horizontal = 0.0;
    tick(&mut app, 10);

    // `b` walks away: now neither touches, and the pair ends once per side.
    input(&mut app, b).horizontal = 1.0;
    tick(&mut app, 20);
    assert!(contacts(&app, a).with(b).is_none() && contacts(&app, b).with(a).is_none());
    let ended = ended(&app);
    assert_eq!(ended.len(), 2, "{ended:?}");
    assert!(ended.contains(&(a, b, ContactDirection::Right)) && ended.contains(&(b, a, ContactDirection::Left)));
}

#[test]
fn a_body_moved_from_one_floor_onto_another_in_one_step_ends_one_contact_and_starts_the_other() {
    for mode in MODES {
        let mut app = app();
        collect::<ContactStarted>(&mut app);
        collect::<ContactEnded>(&mut app);
        let first = spawn_box(&mut app, Vec2::new(-100.0, -16.0), Vec2::new(100.0, 16.0));
        let second = spawn_box(&mut app, Vec2::new(200.0, -16.0), Vec2::new(100.0, 16.0));
        let body = spawn_body(&mut app, Vec2::new(-50.0, 0.0), Vec2::new(12.0, 24.0), mode);
        tick(&mut app, 30);
        assert!(
            contacts(&app, body).with(first).is_some(),
            "{mode:?}: resting on the first floor"
        );

        // A respawn: the game puts the body on the second floor, feet on its top.
        app.world_mut().get_mut::<Transform>(body).unwrap().translation = Vec3::new(250.0, 12.0, 0.0);
        tick(&mut app, 1);
        assert!(
            contacts(&app, body).with(second).is_some(),
            "{mode:?}: on the second floor"
        );
        let ended = pair_events(&collected::<ContactEnded>(&app), |e| (e.entity, e.other, e.direction));
        assert_eq!(
            ended,
            vec![
                (body, first, ContactDirection::Down),
                (first, body, ContactDirection::Up)
            ],
            "{mode:?}"
        );
        let started = pair_events(&collected::<ContactStarted>(&app), |e| (e.entity, e.other, e.direction));
        assert!(
            started.contains(&(body, second, ContactDirection::Down))
                && started.contains(&(second, body, ContactDirection::Up)),
            "{mode:?}: {started:?}"
        );
    }
}

#[test]
fn a_contact_moved_to_another_side_of_the_same_collider_ends_on_the_side_it_was_last_on() {
    for mode in MODES {
        let mut app = app();
        collect::<ContactStarted>(&mut app);
        collect::<ContactEnded>(&mut app);
        // A pillar and nothing else: the body stands on its top, then is put beside it in the air.
        let pillar = spawn_box(&mut app, Vec2::new(20.0, -100.0), Vec2::new(16.0, 200.0));
        let body = spawn_body(&mut app, Vec2::new(28.0, 100.0), Vec2::new(12.0, 24.0), mode);
        tick(&mut app, 10);
        assert_eq!(
            contacts(&app, body).with(pillar).map(|c| c.direction),
            Some(ContactDirection::Down),
            "{mode:?}: standing on the pillar"
        );

        // Flush against the pillar's left face, pressing right while falling along it: the same
        // collider, now on the body's right.
        app.world_mut().get_mut::<Transform>(body).unwrap().translation = Vec3::new(14.0, 50.0, 0.0);
        input(&mut app, body).horizontal = 1.0;
        tick(&mut app, 2);
        assert_eq!(
            contacts(&app, body).with(pillar).map(|c| c.direction),
            Some(ContactDirection::Right),
            "{mode:?}: against the pillar's face"
        );
        let reported: Vec<_> = app
            .world()
            .get::<bevy_platformer_physics::ReportedContacts>(body)
            .unwrap()
            .iter()
            .collect();
        assert_eq!(reported, vec![(pillar, ContactDirection::Right)], "{mode:?}");
        assert_eq!(
            collected::<ContactStarted>(&app).len(),
            2,
            "{mode:?}: the contact went on: nothing started again"
        );
        assert!(collected::<ContactEnded>(&app).is_empty(), "{mode:?}: nothing ended");

        input(&mut app, body).horizontal = -1.0;
        tick(&mut app, 10);
        let ended = pair_events(&collected::<ContactEnded>(&app), |e| (e.entity, e.other, e.direction));
        assert_eq!(
            ended,
            vec![
                (body, pillar, ContactDirection::Right),
                (pillar, body, ContactDirection::Left)
            ],
            "{mode:?}"
        );
    }
}

#[test]
fn a_pair_both_bodies_start_in_the_same_step_is_reported_once_smaller_entity_first() {
    for mode in MODES {
        let mut app = app();
        collect::<ContactStarted>(&mut app);
        spawn_box(&mut app, Vec2::new(-200.0, -16.0), Vec2::new(400.0, 16.0));
        let size = Vec2::new(12.0, 24.0);
        let a = spawn_body(&mut app, Vec2::new(-60.0, 0.0), size, mode);
        let b = spawn_body(&mut app, Vec2::new(60.0, 0.0), size, mode);
        tick(&mut app, 10);
        // Both are put flush against each other at once, each pressing into the other.
        for (body, x, push) in [(a, 0.0, 1.0), (b, 12.0, -1.0)] {
            input(&mut app, body).horizontal = push;
            app.world_mut().get_mut::<Transform>(body).unwrap().translation.x = x;
        }
        tick(&mut app, 1);
        assert_both_touch(&app, a, b, &format!("{mode:?}"));
        let events = pair_events(&collected::<ContactStarted>(&app), |e| (e.entity, e.other, e.direction));
        let (started, expected) = pair_between(events, a, b);
        assert_eq!(started, expected, "{mode:?}");
    }
}

#[test]
fn a_pair_both_bodies_end_in_the_same_step_is_reported_once_smaller_entity_first() {
    for mode in MODES {
        let mut app = app();
        collect::<ContactEnded>(&mut app);
        spawn_box(&mut app, Vec2::new(-200.0, -16.0), Vec2::new(400.0, 16.0));
        let size = Vec2::new(12.0, 24.0);
        let a = spawn_body(&mut app, Vec2::new(0.0, 0.0), size, mode);
        let b = spawn_body(&mut app, Vec2::new(14.0, 0.0), size, mode);
        input(&mut app, a).horizontal = 1.0;
        input(&mut app, b).horizontal = -1.0;
        tick(&mut app, 30);
        assert_both_touch(&app, a, b, &format!("{mode:?}"));
        // Both are taken apart at once: each side ends it in the same step.
        for (body, x) in [(a, -100.0), (b, 100.0)] {
            input(&mut app, body).horizontal = 0.0;
            app.world_mut().get_mut::<Transform>(body).unwrap().translation.x = x;
        }
        tick(&mut app, 1);
        let events = pair_events(&collected::<ContactEnded>(&app), |e| (e.entity, e.other, e.direction));
        let (ended, expected) = pair_between(events, a, b);
        assert_eq!(ended, expected, "{mode:?}");
    }
}

#[test]
fn a_body_gliding_flush_along_a_floor_without_gravity_touches_nothing() {
    for mode in MODES {
        let mut app = app();
        spawn_box(&mut app, Vec2::new(-200.0, -16.0), Vec2::new(400.0, 16.0));
        let body = spawn_body(&mut app, Vec2::new(0.0, 0.0), Vec2::new(12.0, 24.0), mode);
        let mut movement = *app.world().get::<MovementTuning>(body).unwrap();
        movement.gravity_scale = 0.0;
        set_movement(&mut app, body, movement);
        input(&mut app, body).horizontal = 1.0;
        tick(&mut app, 20);
        let b = aabb(&app, body);
        assert!(b.min.x > 1.0 && b.min.y == 0.0, "{mode:?}: glided flush: {b:?}");
        assert!(
            contacts(&app, body).iter().next().is_none(),
            "{mode:?}: it never pressed the floor: {:?}",
            contacts(&app, body)
        );
    }
}
