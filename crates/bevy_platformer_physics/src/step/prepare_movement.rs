//! PrepareMovement: where the step's own movement starts (`seeds/000` §3, `prepareMovement()`).
//!
//! The start box is what the one-way rule compares with (the body's bottom at the *start* of the
//! step), and where the slope planner of `seeds/000` §3–8 begins.

use bevy::prelude::*;

use crate::components::*;
use crate::step::AwakeDynamic;

/// Records the start position and box of every awake dynamic body.
pub(crate) fn record_start(mut bodies: Query<(&Transform, &Collider, &mut MovementState), AwakeDynamic>) {
    for (transform, collider, mut state) in &mut bodies {
        let start = transform.translation.truncate();
        state.start = start;
        state.start_aabb = collider.aabb(start);
    }
}
