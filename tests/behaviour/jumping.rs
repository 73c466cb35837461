//! The jumps of the plugin's controller, in every mode: the forgiving jump (`JumpTuning`: coyote
//! time after walking off a ledge, a jump buffered before landing, a released button cutting the
//! rise) and the wall slide and wall jump (`WallJumpTuning`). A body without them keeps the strict
//! rule (a jump only while supported, when asked; a free fall beside a wall), which each test
//! checks beside.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;

const JUMP: f32 = 400.0;

/// 0.1 s of coyote time and of jump buffer, a release keeps 40 % of the rise.
const FORGIVING: JumpTuning = JumpTuning {
    coyote_time: 0.1,
    jump_buffer: 0.1,
    release_cut: 0.4,
};

/// A floor from x = -200 to x = 0 (top at y = 0), and a body standing on it at `x`; `forgiving`
/// gives it [`FORGIVING`].
fn ledge(mode: CollisionMode, x: f32, forgiving: bool) -> (App, Entity) {
    let mut app = app();
    spawn_box(&mut app, Vec2::new(-200.0, -16.0), Vec2::new(200.0, 16.0));
    let body = spawn_body(&mut app, Vec2::new(x, 0.0), Vec2::new(12.0, 24.0), mode);
    if forgiving {
        app.world_mut().entity_mut(body).insert(FORGIVING);
    }
    tick(&mut app, 3);
    assert!(contacts(&app, body).on_floor(), "{mode:?}: standing");
    (app, body)
}

/// Walks `body` right at 100 px/s until the step its floor contact ends; then stops the input.
fn walk_off(app: &mut App, body: Entity, mode: CollisionMode) {
    walker(app, body, 100.0);
    input(app, body).horizontal = 1.0;
    for _ in 0..200 {
        tick(app, 1);
        if !contacts(app, body).on_floor() {
            input(app, body).horizontal = 0.0;
            return;
        }
    }
    panic!("{mode:?}: never left the ledge");
}

/// Asks for a jump, runs one step, and says whether the body now rises at the jump's speed.
fn jumps(app: &mut App, body: Entity) -> bool {
    input(app, body).jump = Some(JUMP);
    tick(app, 1);
    velocity(app, body).y == JUMP
}

#[test]
fn coyote_time_honours_one_jump_asked_just_after_walking_off_a_ledge() {
    for mode in MODES {
        for forgiving in [true, false] {
            let (mut app, body) = ledge(mode, -30.0, forgiving);
            walk_off(&mut app, body, mode);
            // Three steps (0.03 s) into the fall, within 0.1 s.
            tick(&mut app, 2);
            assert!(velocity(&app, body).y < 0.0, "{mode:?}: falling");
            assert_eq!(
                jumps(&mut app, body),
                forgiving,
                "{mode:?} forgiving {forgiving}: the late jump"
            );
            if forgiving {
                tick(&mut app, 1);
                assert!(!jumps(&mut app, body), "{mode:?}: no second jump in the air");
            }
        }
    }
}

#[test]
fn coyote_time_ends() {
    for mode in MODES {
        let (mut app, body) = ledge(mode, -30.0, true);
        walk_off(&mut app, body, mode);
        // 0.15 s into the fall: too late.
        tick(&mut app, 14);
        assert!(!jumps(&mut app, body), "{mode:?}");
    }
}

/// The step (counted from the drop) at which a body dropped from 60 px above the floor lands.
fn landing_step(mode: CollisionMode) -> usize {
    let (mut app, body) = ledge(mode, -100.0, true);
    set_velocity(&mut app, body, Vec2::ZERO);
    app.world_mut().get_mut::<Transform>(body).unwrap().translation.y = 72.0;
    for step in 1..500 {
        tick(&mut app, 1);
        if contacts(&app, body).on_floor() {
            return step;
        }
    }
    panic!("{mode:?}: never landed");
}

/// Drops a body from 60 px, asks for a jump `early` steps before it lands, and says whether it
/// jumps in the step after landing.
fn buffered_jump(mode: CollisionMode, early: usize, forgiving: bool) -> bool {
    let landing = landing_step(mode);
    let (mut app, body) = ledge(mode, -100.0, forgiving);
    set_velocity(&mut app, body, Vec2::ZERO);
    app.world_mut().get_mut::<Transform>(body).unwrap().translation.y = 72.0;
    tick(&mut app, landing - early);
    assert!(!contacts(&app, body).on_floor(), "{mode:?}: still in the air");
    input(&mut app, body).jump = Some(JUMP);
    for _ in 0..=early {
        tick(&mut app, 1);
    }
    velocity(&app, body).y == JUMP
}

#[test]
fn a_jump_asked_just_before_landing_is_honoured_on_landing() {
    for mode in MODES {
        assert!(buffered_jump(mode, 5, true), "{mode:?}: 0.05 s early, buffered");
        assert!(!buffered_jump(mode, 5, false), "{mode:?}: without JumpTuning, lost");
        assert!(!buffered_jump(mode, 20, true), "{mode:?}: 0.2 s early, past the buffer");
    }
}

#[test]
fn releasing_jump_while_rising_cuts_the_rise() {
    for mode in MODES {
        let mut peaks = Vec::new();
        for (forgiving, release) in [(true, false), (true, true), (false, true)] {
            let (mut app, body) = ledge(mode, -100.0, forgiving);
            assert!(jumps(&mut app, body), "{mode:?}: jumped");
            tick(&mut app, 4);
            let rising = velocity(&app, body).y;
            input(&mut app, body).jump_released = release;
            tick(&mut app, 1);
            let after = velocity(&app, body).y;
            let gravity = app.world().resource::<PhysicsConfig>().gravity.y * DT;
            let expected = match forgiving && release {
                true => (rising + gravity) * FORGIVING.release_cut,
                false => rising + gravity,
            };
            assert!((after - expected).abs() < EPS, "{mode:?}: {after} not {expected}");
            let mut peak = aabb(&app, body).min.y;
            while velocity(&app, body).y > 0.0 {
                tick(&mut app, 1);
                peak = peak.max(aabb(&app, body).min.y);
            }
            peaks.push(peak);
            // Released while falling: nothing to cut.
            let falling = velocity(&app, body).y;
            input(&mut app, body).jump_released = true;
            tick(&mut app, 1);
            assert!(
                (velocity(&app, body).y - (falling + gravity)).abs() < EPS,
                "{mode:?}: falling"
            );
        }
        assert!(peaks[1] < peaks[0] * 0.6, "{mode:?}: a tap jumps lower: {peaks:?}");
        assert_eq!(
            peaks[2], peaks[0],
            "{mode:?}: without JumpTuning the release does nothing"
        );
    }
}

const WALL: WallJumpTuning = WallJumpTuning {
    max_slide_speed: 60.0,
    jump: Vec2::new(160.0, 360.0),
};

/// A wall from x = 0 to x = 32 (y from -300 to 300), a floor under it all at y = -300, and a body in
/// the air left of the wall at height `y`, pressing right into it at up to 200 px/s; `wall_jump`
/// gives it [`WALL`].
fn wall(mode: CollisionMode, y: f32, wall_jump: bool) -> (App, Entity) {
    let mut app = app();
    spawn_box(&mut app, Vec2::new(0.0, -300.0), Vec2::new(32.0, 600.0));
    spawn_box(&mut app, Vec2::new(-300.0, -316.0), Vec2::new(600.0, 16.0));
    let body = spawn_body(&mut app, Vec2::new(-7.0, y), Vec2::new(12.0, 24.0), mode);
    walker(&mut app, body, 200.0);
    if wall_jump {
        app.world_mut().entity_mut(body).insert(WALL);
    }
    input(&mut app, body).horizontal = 1.0;
    (app, body)
}

#[test]
fn a_body_pressed_against_a_wall_in_the_air_slides_no_faster_than_its_cap() {
    for mode in MODES {
        for wall_jump in [true, false] {
            let (mut app, body) = wall(mode, 200.0, wall_jump);
            tick(&mut app, 40);
            assert!(contacts(&app, body).on_wall(), "{mode:?}: pressed against the wall");
            let fall = velocity(&app, body).y;
            match wall_jump {
                true => assert_eq!(fall, -WALL.max_slide_speed, "{mode:?}: sliding"),
                false => assert!(fall < -300.0, "{mode:?}: falling freely at {fall}"),
            }
            // Let go of the wall: nothing holds the fall back.
            input(&mut app, body).horizontal = 0.0;
            tick(&mut app, 20);
            assert!(
                velocity(&app, body).y < -200.0,
                "{mode:?} {wall_jump}: {}",
                velocity(&app, body).y
            );
        }
    }
}

#[test]
fn a_wall_jump_pushes_the_body_up_and_away_from_the_wall() {
    for mode in MODES {
        for wall_jump in [true, false] {
            let (mut app, body) = wall(mode, 200.0, wall_jump);
            tick(&mut app, 40);
            assert!(contacts(&app, body).on_wall(), "{mode:?}: on the wall");
            input(&mut app, body).jump = Some(JUMP);
            tick(&mut app, 1);
            match wall_jump {
                true => assert_eq!(velocity(&app, body), Vec2::new(-160.0, 360.0), "{mode:?}"),
                false => assert!(velocity(&app, body).y < 0.0, "{mode:?}: no jump in the air"),
            }
        }
    }
}

#[test]
fn beside_a_wall_on_the_ground_a_jump_is_a_jump_from_the_ground() {
    for mode in MODES {
        let (mut app, body) = wall(mode, -300.0, true);
        tick(&mut app, 5);
        assert!(
            contacts(&app, body).on_floor() && contacts(&app, body).on_wall(),
            "{mode:?}"
        );
        assert!(jumps(&mut app, body), "{mode:?}: straight up at the jump's speed");
        assert!(velocity(&app, body).x >= 0.0, "{mode:?}: not pushed off the wall");
    }
}
