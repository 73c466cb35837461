//! Lifts carry the player and enemies across a pit.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::game::*;
use serde_json::json;
use slope_bros::gameplay::enemies::Enemy;
use slope_bros::gameplay::player::Player;
use slope_bros::input::replay::Replay;

#[test]
fn a_lift_carries_the_player_and_an_enemy_standing_on_it() {
    // A 6-cell lift at row 6 (top at y = 7 tiles from the bottom... see below) moving right over a pit.
    // The player rides the lower lift, a ledge-turning walker the upper one (apart: a touch would
    // hurt the player).
    let rows = [
        "S..............................S",
        "S....W.........................S",
        "S..............................S",
        "S..............................S",
        "S..P...........................S",
        "S..............................S",
        "S..............................S",
        "S..............................S",
        "###......................#######",
    ];
    let upper = Placed {
        identifier: "Lift",
        cell: IVec2::new(2, 2),
        cells: IVec2::new(6, 1),
        fields: vec![
            ("path", json!([{"cx": 20, "cy": 2}])),
            ("speed", json!(40.0)),
            ("wait", json!(0.0)),
            ("mode", json!("Once")),
            ("one_way", json!(false)),
        ],
    };
    let lift = Placed {
        identifier: "Lift",
        cell: IVec2::new(2, 5),
        cells: IVec2::new(6, 1),
        fields: vec![
            ("path", json!([{"cx": 20, "cy": 5}])),
            ("speed", json!(40.0)),
            ("wait", json!(0.0)),
            ("mode", json!("Once")),
            ("one_way", json!(false)),
        ],
    };
    let mut app = app_on(write_level("lift", &rows, &[lift, upper]), Replay::default());
    tick(&mut app, 30);
    let lift_top = (9 - 5) as f32 * 16.0;
    let start_player = player_feet(&mut app);
    assert!(
        (start_player.y - lift_top).abs() < 0.5,
        "the player stands on the lift: {start_player}"
    );
    let world = app.world_mut();
    let lifts: Vec<Entity> = world
        .query_filtered::<Entity, With<PathFollower>>()
        .iter(world)
        .collect();
    assert_eq!(lifts.len(), 2);
    let enemy_start = enemies(&mut app)[0].2;
    for step in 0..240 {
        tick(&mut app, 1);
        let world = app.world_mut();
        let mut riders = world.query_filtered::<(&Contacts, Has<Player>), Or<(With<Player>, With<Enemy>)>>();
        let riders: Vec<(Contacts, bool)> = riders.iter(world).map(|(c, p)| (c.clone(), p)).collect();
        assert_eq!(riders.len(), 2, "step {step}: the player and the enemy are still there");
        for (contacts, is_player) in riders {
            assert!(
                contacts
                    .solid_in(ContactDirection::Down)
                    .any(|c| lifts.contains(&c.entity)),
                "step {step}: the {} is not standing on a lift",
                if is_player { "player" } else { "enemy" }
            );
        }
    }
    let enemy_end = enemies(&mut app)[0].2;
    assert!(
        (enemy_end.y - enemy_start.y).abs() < 0.5,
        "the enemy stayed on its lift's top: {enemy_start} → {enemy_end}"
    );
    let moved = player_feet(&mut app).x - start_player.x;
    assert!(
        moved > 150.0,
        "the lift carried the player {moved} px right (40 px/s for 4 s)"
    );
    assert!(
        (player_feet(&mut app).y - lift_top).abs() < 0.5,
        "over the pit, still on the lift"
    );
}
