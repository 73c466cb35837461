//! FinishMovement: after the move (`seeds/000` §10–14, `finishMovement()`). In the core this keeps
//! the drop-through bookkeeping: a one-way platform the body dropped through is solid again for it
//! once the body no longer touches it.

use bevy::prelude::*;

use crate::broad_phase::BroadPhase;
use crate::components::*;
use crate::config::PhysicsConfig;
use crate::step::AwakeDynamic;

/// Forgets drop-through platforms that the body has left.
pub(crate) fn finish_drop_through(
    config: Res<PhysicsConfig>,
    broad_phase: Res<BroadPhase>,
    mut bodies: Query<(Entity, &mut MovementState), AwakeDynamic>,
) {
    for (entity, mut state) in &mut bodies {
        if state.dropping_through.is_empty() {
            continue;
        }
        let Some(body) = broad_phase.get(entity).map(|p| p.aabb) else {
            continue;
        };
        state.dropping_through.retain(|platform| {
            broad_phase
                .get(*platform)
                .is_some_and(|p| p.aabb.touches(&body, config.skin))
        });
    }
}
