//! ContactEvents: compares this step's contacts with the previous step's and sends
//! [`ContactStarted`] / [`ContactEnded`] once per pair, to both sides with opposite directions
//! (`seeds/001` `collision(with, begin, fromDir)` and `detectDecollisions()`). It runs after every
//! contact of the step is recorded, so a support that is recorded again never looks ended.

use bevy::prelude::*;

use crate::components::{ContactDirection, Contacts};
use crate::messages::{ContactEnded, ContactStarted};

/// Directed contact pairs `(entity, other, direction)` of the latest step, sorted by
/// `(entity, other)`, one per ordered pair.
#[derive(Resource, Debug, Default)]
pub struct ContactPairs {
    pairs: Vec<(Entity, Entity, ContactDirection)>,
    scratch: Vec<(Entity, Entity, ContactDirection)>,
}

impl ContactPairs {
    /// The pairs of the latest step.
    pub fn pairs(&self) -> &[(Entity, Entity, ContactDirection)] {
        &self.pairs
    }

    /// Removes every pair involving `gone`, calling `ended(survivor, direction)` for each survivor
    /// that touched it (`direction`: side of the survivor on which `gone` was).
    pub(crate) fn forget(&mut self, gone: Entity, mut ended: impl FnMut(Entity, ContactDirection)) {
        self.pairs.retain(|&(entity, other, direction)| {
            if other == gone && entity != gone {
                ended(entity, direction);
            }
            entity != gone && other != gone
        });
    }
}

/// Sends the started and ended messages (and entity events) of this step.
pub(crate) fn send_contact_events(
    mut commands: Commands,
    bodies: Query<(Entity, &Contacts)>,
    mut pairs: ResMut<ContactPairs>,
    mut started: MessageWriter<ContactStarted>,
    mut ended: MessageWriter<ContactEnded>,
) {
    let ContactPairs { pairs, scratch } = &mut *pairs;
    scratch.clear();
    for (entity, contacts) in &bodies {
        for contact in contacts.iter() {
            scratch.push((entity, contact.entity, contact.direction));
            scratch.push((contact.entity, entity, contact.direction.opposite()));
        }
    }
    // Both dynamic sides of a pair report it: keep the first.
    scratch.sort_by_key(|&(a, b, _)| (a, b));
    scratch.dedup_by_key(|&mut (a, b, _)| (a, b));

    let (mut i, mut j) = (0, 0);
    while i < scratch.len() || j < pairs.len() {
        let current = scratch.get(i).copied();
        let previous = pairs.get(j).copied();
        match (current, previous) {
            (Some(c), Some(p)) if (c.0, c.1) == (p.0, p.1) => {
                i += 1;
                j += 1;
            }
            (Some(c), p) if p.is_none_or(|p| (c.0, c.1) < (p.0, p.1)) => {
                let event = ContactStarted {
                    entity: c.0,
                    other: c.1,
                    direction: c.2,
                };
                started.write(event);
                commands.trigger(event);
                i += 1;
            }
            (_, Some(p)) => {
                let event = ContactEnded {
                    entity: p.0,
                    other: p.1,
                    direction: p.2,
                };
                ended.write(event);
                commands.trigger(event);
                j += 1;
            }
            (None, None) => break,
            (Some(_), None) => unreachable!("handled by the started arm"),
        }
    }
    std::mem::swap(pairs, scratch);
}
