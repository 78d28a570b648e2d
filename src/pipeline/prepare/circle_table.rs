//! One table of circles as Bevy stores it, the way the prepare stage reads it: each
//! component's column as a slice, split into pieces for the task pool, and each row's sweep
//! read and moved on to where the row is now.

use crate::collider::CircleCollider;
use crate::layers::CollisionLayers;
use crate::swept::Swept;
use bevy::prelude::*;

/// One table's circles, as Bevy stores them: each component's column as a slice, an optional
/// one `None` when the table lacks it.
pub(super) struct CircleTable<'w> {
    pub entities: &'w [Entity],
    pub circles: &'w [CircleCollider],
    pub transforms: &'w [GlobalTransform],
    pub layers: Option<&'w [CollisionLayers]>,
    /// Read for where each path starts, and written with where the next one does.
    pub swept: Option<&'w mut [Swept]>,
}

impl CircleTable<'_> {
    /// How many rows (circles) it has.
    pub fn len(&self) -> usize {
        self.entities.len()
    }

    /// Splits off the first `at` rows.
    pub fn split_at(self, at: usize) -> (Self, Self) {
        let (entities, entities_rest) = self.entities.split_at(at);
        let (circles, circles_rest) = self.circles.split_at(at);
        let (transforms, transforms_rest) = self.transforms.split_at(at);
        let (layers, layers_rest) = match self.layers {
            Some(layers) => {
                let (layers, rest) = layers.split_at(at);
                (Some(layers), Some(rest))
            }
            None => (None, None),
        };
        let (swept, swept_rest) = match self.swept {
            Some(swept) => {
                let (swept, rest) = swept.split_at_mut(at);
                (Some(swept), Some(rest))
            }
            None => (None, None),
        };
        (
            Self {
                entities,
                circles,
                transforms,
                layers,
                swept,
            },
            Self {
                entities: entities_rest,
                circles: circles_rest,
                transforms: transforms_rest,
                layers: layers_rest,
                swept: swept_rest,
            },
        )
    }

    /// Row `row`'s motion along its path to where it is now (zero when its table has no
    /// sweeps), its start remembered for the next path.
    #[inline]
    pub fn travel(&mut self, row: usize) -> Vec2 {
        let translation = self.transforms[row].translation().xy();
        let Some(swept) = self.swept.as_deref_mut() else {
            return Vec2::ZERO;
        };
        let motion = swept[row].motion_to(translation);
        swept[row].set_start(translation);
        motion
    }

    /// Remembers where row `row` is, for its next path, when its table has sweeps.
    pub fn remember_start(&mut self, row: usize) {
        let translation = self.transforms[row].translation().xy();
        if let Some(swept) = self.swept.as_deref_mut() {
            swept[row].set_start(translation);
        }
    }
}
