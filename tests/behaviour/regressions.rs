//! Bugs the robustness harness found (seeds in the comments), each as a small fixed scene, in
//! every mode. The invariant in all of them: a body never ends a step inside a solid.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;

/// Seed 8449057999417993185: standing on a one-way platform, walking into a box whose underside
/// is a little lower than the head. Pushing down would sink the body into its platform; the box is
/// a wall for it.
#[test]
fn a_head_high_box_corner_is_a_wall_not_a_ceiling() {
    for mode in MODES {
        for one_way in [true, false] {
            let label = format!("{mode:?} one-way {one_way}");
            let mut app = app();
            let floor = spawn_box(&mut app, Vec2::new(-100.0, -6.0), Vec2::new(300.0, 6.0));
            if one_way {
                app.world_mut().entity_mut(floor).insert(OneWayPlatform);
            }
            let block = spawn_box(&mut app, Vec2::new(40.0, 23.2), Vec2::new(30.0, 30.0));
            let body = spawn_body(&mut app, Vec2::new(0.0, 0.0), Vec2::new(10.0, 24.0), mode);
            walker(&mut app, body, 160.0);
            input(&mut app, body).horizontal = 1.0;
            for _ in 0..60 {
                tick(&mut app, 1);
                assert_not_inside(&app, body, &label);
            }
            let b = aabb(&app, body);
            assert!(
                b.max.x <= 40.0 + 1e-3,
                "{label}: passed under a box lower than its head: {b:?}"
            );
            assert!(b.min.y.abs() < 1e-3, "{label}: still on its floor: {b:?}");
            let _ = block;
        }
    }
}
