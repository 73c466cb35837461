//! ContactEvents: compares this step's contacts with the previous step's and sends
//! [`ContactStarted`] / [`ContactEnded`] once per pair, to both sides with opposite directions
//! (see *Contacts recorded, and contact events* in [the physics rules](crate::physics_rules)). It runs after every
//! contact of the step is recorded, so a support that is recorded again never looks ended.
//!
//! Two colliders are in contact while either of them lists the other in its [`Contacts`]. Each
//! body keeps, in [`ReportedContacts`], the contacts this stage last reported for it, so the stage
//! only compares each body with itself: a body whose contacts did not change costs a few
//! comparisons, and only a body whose contacts changed looks at the other side of each change.

use bevy::prelude::*;

use crate::components::{ContactDirection, Contacts, Dynamic, Grounded};
use crate::messages::{ContactEnded, ContactStarted};
use crate::schedule::{PlatformerSystems, physics_schedule};

/// The other colliders a body touched when ContactEvents last ran, with the side of the body each
/// was on: what the next step's events are measured against. Kept by the plugin; added with
/// [`Contacts`].
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// # use log::debug; // in `bevy::prelude` with Bevy's `bevy_log` feature
/// use bevy_platformer_physics::prelude::*;
/// use bevy_platformer_physics::ReportedContacts;
///
/// // What the last ContactEvents reported for each body: the contacts its events were made from.
/// fn touching(bodies: Query<(Entity, &ReportedContacts)>) {
///     for (body, reported) in &bodies {
///         for (other, side) in reported.iter() {
///             debug!("{body} touches {other} on its {side:?} side");
///         }
///     }
/// }
/// # App::new().add_systems(Update, touching);
/// ```
#[derive(Component, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct ReportedContacts(Vec<(Entity, ContactDirection)>);

impl ReportedContacts {
    /// The reported contacts, one per other entity.
    pub fn iter(&self) -> impl Iterator<Item = (Entity, ContactDirection)> + '_ {
        self.0.iter().copied()
    }

    /// Whether `other` was reported.
    pub fn has(&self, other: Entity) -> bool {
        self.0.iter().any(|&(e, _)| e == other)
    }

    /// Makes the reported contacts those of `contacts`: the first contact with each entity.
    fn set_from(&mut self, contacts: &Contacts) {
        self.0.clear();
        for contact in contacts.iter() {
            if !self.has(contact.entity) {
                self.0.push((contact.entity, contact.direction));
            }
        }
    }

    /// Whether `contacts` touches the same entities on the same sides as reported. A contact that
    /// moved to another side of the same collider sends no event, but its side is brought up to
    /// date, so that the contact ends on the side it was last on.
    fn same_as(&self, contacts: &Contacts) -> bool {
        match (&contacts.list[..], &self.0[..]) {
            // Most bodies touch one collider, step after step.
            ([contact], [(other, side)]) => contact.entity == *other && contact.direction == *side,
            ([], []) => true,
            _ => {
                contacts.iter().all(|c| self.has(c.entity))
                    && self
                        .0
                        .iter()
                        .all(|&(e, side)| contacts.with(e).is_some_and(|c| c.direction == side))
            }
        }
    }

    /// Forgets `other`; returns the side it was on.
    pub(crate) fn forget(&mut self, other: Entity) -> Option<ContactDirection> {
        let i = self.0.iter().position(|&(e, _)| e == other)?;
        Some(self.0.remove(i).1)
    }
}

/// A change of contact found by one body, to be sent to both sides.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Change {
    started: bool,
    entity: Entity,
    other: Entity,
    direction: ContactDirection,
}

/// Sends the started and ended messages (and entity events) of this step.
pub(crate) fn send_contact_events(
    mut commands: Commands,
    mut bodies: Query<(Entity, &Contacts, &mut ReportedContacts)>,
    mut started: MessageWriter<ContactStarted>,
    mut ended: MessageWriter<ContactEnded>,
    mut changed: Local<Vec<Entity>>,
    mut changes: Local<Vec<Change>>,
) {
    changed.clear();
    changed.extend(
        bodies
            .iter()
            .filter(|(_, contacts, reported)| !reported.same_as(contacts))
            .map(|(entity, ..)| entity),
    );
    if changed.is_empty() {
        return;
    }
    // Every body's reported contacts are still those of the previous step here.
    changes.clear();
    for &entity in changed.iter() {
        let Ok((_, contacts, reported)) = bodies.get(entity) else {
            continue;
        };
        // The other side's contacts, if it is a body too: (now, before).
        let other_side = |other: Entity| {
            bodies
                .get(other)
                .ok()
                .map(|(_, c, r)| (c.with(entity).is_some(), r.has(entity)))
        };
        for contact in contacts.iter() {
            let other = contact.entity;
            if reported.has(other) || contacts.with(other).is_some_and(|first| !std::ptr::eq(first, contact)) {
                continue;
            }
            // Not if the pair already existed through the other side, or if both sides start it
            // and the other, the smaller entity, reports it.
            let report = other_side(other).is_none_or(|(now, before)| !(before || (now && other < entity)));
            if report {
                changes.push(Change {
                    started: true,
                    entity,
                    other,
                    direction: contact.direction,
                });
            }
        }
        for (other, direction) in reported.iter() {
            if contacts.with(other).is_some() {
                continue;
            }
            // Not if the other side still touches it, or if both sides end it and the other, the
            // smaller entity, reports it.
            let report = other_side(other).is_none_or(|(now, before)| !(now || (before && other < entity)));
            if report {
                changes.push(Change {
                    started: false,
                    entity,
                    other,
                    direction,
                });
            }
        }
    }
    for change in changes.iter() {
        for (entity, other, direction) in [
            (change.entity, change.other, change.direction),
            (change.other, change.entity, change.direction.opposite()),
        ] {
            if change.started {
                let event = ContactStarted {
                    entity,
                    other,
                    direction,
                };
                started.write(event);
                commands.trigger(event);
            } else {
                let event = ContactEnded {
                    entity,
                    other,
                    direction,
                };
                ended.write(event);
                commands.trigger(event);
            }
        }
    }
    for &entity in changed.iter() {
        if let Ok((_, contacts, mut reported)) = bodies.get_mut(entity) {
            reported.set_from(contacts);
        }
    }
}

/// Inserts [`Grounded`] on the dynamic bodies that now stand on something, removes it from those
/// that no longer do.
pub(crate) fn mark_grounded(mut commands: Commands, bodies: Query<(Entity, &Contacts, Has<Grounded>), With<Dynamic>>) {
    for (entity, contacts, grounded) in &bodies {
        match (contacts.on_floor(), grounded) {
            (true, false) => {
                commands.entity(entity).insert(Grounded);
            }
            (false, true) => {
                commands.entity(entity).remove::<Grounded>();
            }
            _ => {}
        }
    }
}

/// Contact started / ended messages and `Grounded` ([`PlatformerSystems::ContactEvents`]).
pub struct ContactEventsPlugin;

impl Plugin for ContactEventsPlugin {
    fn build(&self, app: &mut App) {
        // What was last reported of a body's contacts, compared with this step's.
        app.register_required_components::<Contacts, ReportedContacts>();
        app.add_systems(
            physics_schedule(app),
            (send_contact_events, mark_grounded)
                .chain()
                .in_set(PlatformerSystems::ContactEvents),
        );
    }
}
