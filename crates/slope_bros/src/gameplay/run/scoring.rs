//! Points and extra lives for knocked-out enemies, and the pop-ups that show them where they were
//! scored. A chain scores more with each enemy: stomps without touching the ground, and the
//! enemies one sliding shell knocks out, climb `rules.chain_scores`; past its end each enemy of the
//! chain is an extra life.

use bevy::prelude::*;

use crate::draw_order;
use crate::gameplay::Sfx;
use crate::gameplay::run::progress::GameProgress;
use crate::level::LevelEntity;
use crate::schedule::GameSystems;
use crate::tuning::GameRules;

/// What one scoring gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Reflect)]
pub enum Award {
    /// Points.
    Points(u32),
    /// An extra life.
    OneUp,
}

impl Award {
    /// The `index`-th enemy of a chain (0 is the first).
    pub fn of_chain(rules: &GameRules, index: usize) -> Self {
        rules
            .chain_scores
            .get(index)
            .map_or(Self::OneUp, |points| Self::Points(*points))
    }

    /// As the pop-up writes it.
    pub fn label(self) -> String {
        match self {
            Self::Points(points) => points.to_string(),
            Self::OneUp => "1UP".to_string(),
        }
    }
}

/// A score pop-up: rises from where it was scored and fades; drawn by the presentation.
#[derive(Component, Clone, Copy, Debug, Reflect)]
#[reflect(Component)]
#[require(LevelEntity, Name::new("Score pop-up"))]
pub struct ScorePopup {
    /// What was scored.
    pub award: Award,
    /// Seconds left.
    pub left: f32,
}

/// How long a pop-up shows, s.
const POPUP_TIME: f32 = 0.8;
/// How fast it rises, px/s.
const POPUP_RISE: f32 = 40.0;

/// Gives `award` (points, or a life with its sound) and pops it up at `at`.
pub fn give(
    commands: &mut Commands,
    progress: &mut GameProgress,
    sfx: &mut MessageWriter<Sfx>,
    at: Vec2,
    award: Award,
) {
    match award {
        Award::Points(points) => progress.add_score(points),
        Award::OneUp => {
            progress.lives += 1;
            sfx.write(Sfx::OneUp);
        }
    }
    commands.spawn((
        ScorePopup {
            award,
            left: POPUP_TIME,
        },
        Transform::from_translation(at.extend(draw_order::POPUPS)),
    ));
}

pub(in crate::gameplay) fn plugin(app: &mut App) {
    app.register_type::<ScorePopup>();
    app.add_systems(FixedUpdate, rise_popups.in_set(GameSystems::Progress));
}

fn rise_popups(time: Res<Time>, mut commands: Commands, mut popups: Query<(Entity, &mut ScorePopup, &mut Transform)>) {
    let dt = time.delta_secs();
    for (entity, mut popup, mut transform) in &mut popups {
        popup.left -= dt;
        transform.translation.y += POPUP_RISE * dt;
        if popup.left <= 0.0 {
            commands.entity(entity).despawn();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each enemy of a chain scores more than the one before, and every one past the table's end
    /// is an extra life.
    #[test]
    fn a_chain_climbs_the_scores_then_gives_extra_lives() {
        let rules = GameRules::default();
        let table = rules.chain_scores.len();
        assert!(table >= 2, "a chain table to climb: {:?}", rules.chain_scores);
        let awards: Vec<Award> = (0..table + 2).map(|i| Award::of_chain(&rules, i)).collect();
        for pair in awards[..table].windows(2) {
            match pair {
                [Award::Points(a), Award::Points(b)] => assert!(b > a, "{awards:?}"),
                _ => panic!("the table's part of the chain scores points: {awards:?}"),
            }
        }
        assert_eq!(
            &awards[table..],
            &[Award::OneUp, Award::OneUp],
            "past the table: extra lives"
        );
    }
}
