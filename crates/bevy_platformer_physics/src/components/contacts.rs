//! The contacts a dynamic body had in the latest step.

use bevy::prelude::*;

/// Side of the body on which the other collider lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Debug, PartialEq)]
pub enum ContactDirection {
    /// The other is above (a ceiling).
    Up,
    /// The other is below (a floor, a lift, a slope).
    Down,
    /// The other is on the left (a wall).
    Left,
    /// The other is on the right (a wall).
    Right,
}

impl ContactDirection {
    /// The same contact seen from the other side.
    pub fn opposite(self) -> Self {
        match self {
            ContactDirection::Up => ContactDirection::Down,
            ContactDirection::Down => ContactDirection::Up,
            ContactDirection::Left => ContactDirection::Right,
            ContactDirection::Right => ContactDirection::Left,
        }
    }

    /// The direction of a face normal that points from the other collider toward this body: a
    /// floor's normal is up, so the floor is `Down`.
    pub fn from_normal(normal: Vec2) -> Self {
        if normal.y.abs() >= normal.x.abs() {
            if normal.y > 0.0 {
                ContactDirection::Down
            } else {
                ContactDirection::Up
            }
        } else if normal.x > 0.0 {
            ContactDirection::Left
        } else {
            ContactDirection::Right
        }
    }
}

/// Marks a dynamic body that stands on something (a solid floor, a lift, a one-way platform or a
/// slope: [`Contacts::on_floor`]) after the latest step, so that queries can filter on it. The
/// plugin inserts and removes it in [`PlatformerSystems::ContactEvents`](crate::PlatformerSystems::ContactEvents),
/// after every contact of the step is recorded; a frozen body keeps what it had.
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy_platformer_physics::prelude::*;
///
/// #[derive(Component)]
/// struct Player;
///
/// /// Set by the game's input system when the jump button is pressed.
/// #[derive(Resource)]
/// struct JumpPressed(bool);
///
/// // Jump only from the ground (the same as `contacts.on_floor()` on the body's `Contacts`).
/// fn jump(pressed: Res<JumpPressed>, mut players: Query<&mut MovementInput, (With<Player>, With<Grounded>)>) {
///     for mut input in &mut players {
///         if pressed.0 {
///             input.jump = Some(420.0);
///         }
///     }
/// }
/// # App::new().add_systems(FixedUpdate, jump.before(PlatformerSystems::SyncColliders));
/// ```
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug, Default)]
pub struct Grounded;

/// One contact of a body.
#[derive(Clone, Copy, Debug, PartialEq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Debug, PartialEq)]
pub struct Contact {
    /// The other collider.
    pub entity: Entity,
    /// Side of this body on which `entity` lies.
    pub direction: ContactDirection,
    /// Penetration resolved in this step, in pixels (0 for a swept or flush contact).
    pub depth: f32,
    /// Interaction only: one of the two is a [`Sensor`](crate::Sensor); nothing was pushed.
    pub sensor: bool,
    /// Which piece of `entity`: 0 for an ordinary collider, the piece of a
    /// [`TileGrid`](crate::TileGrid) otherwise.
    pub part: u32,
}

/// The contacts of a dynamic body in the latest physics step, recorded by the Resolve and
/// FinishMovement stages; [`ContactStarted`](crate::ContactStarted) and
/// [`ContactEnded`](crate::ContactEnded) tell when they begin and end. Entities that are despawned
/// are removed from it immediately.
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// # use log::info; // in `bevy::prelude` with Bevy's `bevy_log` feature
/// use bevy_platformer_physics::prelude::*;
///
/// #[derive(Component)]
/// struct Player;
///
/// // After the step: what the player touches, and on which side.
/// fn report(players: Query<&Contacts, With<Player>>) {
///     for contacts in &players {
///         if contacts.on_floor() && contacts.on_wall() {
///             info!("pressed into a corner");
///         }
///         for contact in contacts.solid_in(ContactDirection::Up) {
///             info!("bumped {} from below", contact.entity);
///         }
///     }
/// }
/// # App::new().add_systems(FixedUpdate, report.after(PlatformerSystems::ContactEvents));
/// ```
#[derive(Component, Clone, Debug, Default, PartialEq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug, Default)]
pub struct Contacts {
    /// This step's contacts, at most one per other collider (entity and part).
    pub list: Vec<Contact>,
}

impl Contacts {
    /// Every contact.
    pub fn iter(&self) -> impl Iterator<Item = &Contact> {
        self.list.iter()
    }

    /// Solid (non-sensor) contacts in `direction`.
    pub fn solid_in(&self, direction: ContactDirection) -> impl Iterator<Item = &Contact> {
        self.list.iter().filter(move |c| !c.sensor && c.direction == direction)
    }

    /// Standing on something solid.
    pub fn on_floor(&self) -> bool {
        self.solid_in(ContactDirection::Down).next().is_some()
    }

    /// Touching a solid wall on either side.
    pub fn on_wall(&self) -> bool {
        self.solid_in(ContactDirection::Left).next().is_some()
            || self.solid_in(ContactDirection::Right).next().is_some()
    }

    /// Touching a solid ceiling.
    pub fn on_ceiling(&self) -> bool {
        self.solid_in(ContactDirection::Up).next().is_some()
    }

    /// A contact with `entity` (any of its parts), if any.
    pub fn with(&self, entity: Entity) -> Option<&Contact> {
        self.list.iter().find(|c| c.entity == entity)
    }

    /// Records a contact, keeping one per collider (entity and part): a solid contact replaces a
    /// sensor one, a deeper one a shallower one.
    pub fn record(&mut self, contact: Contact) {
        match self
            .list
            .iter_mut()
            .find(|c| c.entity == contact.entity && c.part == contact.part)
        {
            Some(existing) => {
                if (existing.sensor && !contact.sensor)
                    || (existing.sensor == contact.sensor && contact.depth > existing.depth)
                {
                    *existing = contact;
                }
            }
            None => self.list.push(contact),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_to_direction() {
        assert_eq!(ContactDirection::from_normal(Vec2::Y), ContactDirection::Down);
        assert_eq!(ContactDirection::from_normal(Vec2::NEG_Y), ContactDirection::Up);
        assert_eq!(ContactDirection::from_normal(Vec2::X), ContactDirection::Left);
        assert_eq!(ContactDirection::from_normal(Vec2::NEG_X), ContactDirection::Right);
    }

    #[test]
    fn record_keeps_one_contact_per_entity() {
        let e = Entity::from_raw_u32(7).unwrap();
        let mut contacts = Contacts::default();
        let c = |sensor, depth| Contact {
            entity: e,
            direction: ContactDirection::Down,
            depth,
            sensor,
            part: 0,
        };
        contacts.record(c(true, 0.0));
        contacts.record(c(false, 1.0));
        contacts.record(c(false, 0.5));
        assert_eq!(contacts.list, vec![c(false, 1.0)]);
        assert!(contacts.on_floor());
        assert!(!contacts.on_wall());
    }
}
