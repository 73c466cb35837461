//! The game's blocks: what each cell of a level's `Collisions` layer is to the player (to the
//! physics, a brick and a question block are both solid).

use bevy::prelude::*;
use bevy_platformer_physics::geometry::Aabb;

/// What a cell of the game's `Collisions` layer is. The numbers of the IntGrid values are defined
/// once, in `levels/alphabet.json` (written into each project's definitions by
/// `tools/make_levels.py`); the game reads each value's identifier from the project it loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect)]
pub enum Block {
    /// `ground`: solid.
    Ground,
    /// `stone`: solid.
    Stone,
    /// `one_way`: solid from above only.
    OneWay,
    /// `brick`: a big player breaks it.
    Brick,
    /// `question_coin`: gives a coin once.
    QuestionCoin,
    /// `question_mushroom`: gives a power-up once: a mushroom to a small player, a fire flower to a
    /// big one.
    QuestionMushroom,
    /// `question_star`: gives a star once.
    QuestionStar,
    /// `question_1up`: gives an extra-life mushroom once.
    QuestionOneUp,
    /// `hidden_coin`: not there (nothing to the physics, not drawn) until a head comes up into it
    /// from below: then it is a coin block, hit.
    HiddenCoin,
    /// `hidden_1up`: as `hidden_coin`, with an extra-life mushroom.
    HiddenOneUp,
    /// `multi_coin`: looks like a brick; gives a coin per hit for `items.multi_coin_time` after
    /// the first one (at most `items.multi_coin_max`), then is used.
    MultiCoin,
    /// `lava`: nothing to the physics; a body that sinks `items.lava_depth` into it is lost.
    Lava,
    /// `used_block`: an emptied question block.
    Used,
    /// `slope45_up_right`: a 45° slope cell rising to the right.
    Slope45UpRight,
    /// `slope45_up_left`: a 45° slope cell rising to the left.
    Slope45UpLeft,
    /// `gentle_low_up_right`: the lower half of a 1/2 slope rising to the right.
    GentleLowUpRight,
    /// `gentle_high_up_right`: the upper half of a 1/2 slope rising to the right.
    GentleHighUpRight,
    /// `gentle_low_up_left`: the lower half of a 1/2 slope rising to the left.
    GentleLowUpLeft,
    /// `gentle_high_up_left`: the upper half of a 1/2 slope rising to the left.
    GentleHighUpLeft,
}

impl Block {
    /// The block of an IntGrid value identifier.
    pub fn from_identifier(identifier: &str) -> Option<Self> {
        Some(match identifier {
            "ground" => Self::Ground,
            "stone" => Self::Stone,
            "one_way" => Self::OneWay,
            "brick" => Self::Brick,
            "question_coin" => Self::QuestionCoin,
            "question_mushroom" => Self::QuestionMushroom,
            "question_star" => Self::QuestionStar,
            "question_1up" => Self::QuestionOneUp,
            "hidden_coin" => Self::HiddenCoin,
            "hidden_1up" => Self::HiddenOneUp,
            "multi_coin" => Self::MultiCoin,
            "lava" => Self::Lava,
            "used_block" => Self::Used,
            "slope45_up_right" => Self::Slope45UpRight,
            "slope45_up_left" => Self::Slope45UpLeft,
            "gentle_low_up_right" => Self::GentleLowUpRight,
            "gentle_high_up_right" => Self::GentleHighUpRight,
            "gentle_low_up_left" => Self::GentleLowUpLeft,
            "gentle_high_up_left" => Self::GentleHighUpLeft,
            _ => return None,
        })
    }

    /// Not there for a head coming up into it (a one-way platform, a hidden block, lava).
    pub fn lets_heads_through(self) -> bool {
        matches!(self, Self::OneWay | Self::HiddenCoin | Self::HiddenOneUp | Self::Lava)
    }

    /// A slope cell.
    pub fn is_slope(self) -> bool {
        matches!(
            self,
            Self::Slope45UpRight
                | Self::Slope45UpLeft
                | Self::GentleLowUpRight
                | Self::GentleHighUpRight
                | Self::GentleLowUpLeft
                | Self::GentleHighUpLeft
        )
    }
}

/// The IntGrid values of the level's collision layer, in world space.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LevelCells {
    /// The physics grid entity, if the level has a collision layer.
    pub grid: Option<Entity>,
    /// The collision layer's identifier.
    pub layer: String,
    /// World position of the bottom-left corner of cell (0, 0).
    pub origin: Vec2,
    /// Cell size, px.
    pub cell_size: f32,
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Values, row 0 at the bottom.
    pub values: Vec<i32>,
    /// The game's block of each IntGrid value of the layer, by the value's identifier in the
    /// project.
    pub blocks: Vec<(i32, Block)>,
    /// Every value of the layer is one of the game's blocks (a foreign project's are not).
    pub game_values: bool,
    /// The layer has a tileset and tiles in the project (auto-layer rules or painted tiles), which
    /// `bevy_ecs_ldtk` spawns and the game draws; else the game draws each cell by physics kind.
    pub drawn_by_project: bool,
}

impl LevelCells {
    /// The value at a cell (0 outside).
    pub fn value(&self, cell: IVec2) -> i32 {
        self.index(cell).map_or(0, |i| self.values[i])
    }

    /// The game's block at a cell (`None` for empty, outside, or a value the game does not know).
    pub fn block(&self, cell: IVec2) -> Option<Block> {
        let value = self.value(cell);
        self.blocks.iter().find(|(v, _)| *v == value).map(|(_, b)| *b)
    }

    /// Puts `block` at a cell (`None` empties it); false outside, or for a block the level's
    /// layer does not define.
    pub fn set_block(&mut self, cell: IVec2, block: Option<Block>) -> bool {
        let value = match block {
            None => 0,
            Some(block) => match self.blocks.iter().find(|(_, b)| *b == block) {
                Some((value, _)) => *value,
                None => return false,
            },
        };
        match self.index(cell) {
            Some(i) => {
                self.values[i] = value;
                true
            }
            None => false,
        }
    }

    /// The cell containing a world point.
    pub fn cell_at(&self, point: Vec2) -> IVec2 {
        ((point - self.origin) / self.cell_size).floor().as_ivec2()
    }

    /// A cell's world rectangle.
    pub fn cell_rect(&self, cell: IVec2) -> Aabb {
        Aabb::from_min_size(
            self.origin + cell.as_vec2() * self.cell_size,
            Vec2::splat(self.cell_size),
        )
    }

    fn index(&self, cell: IVec2) -> Option<usize> {
        (cell.x >= 0 && cell.y >= 0 && (cell.x as u32) < self.width && (cell.y as u32) < self.height)
            .then(|| (cell.y as u32 * self.width + cell.x as u32) as usize)
    }
}
