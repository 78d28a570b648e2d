//! Tests of the grid's layout: how it fits its cells to a box, dense or folded.

use super::*;

/// A 10 × 5 grid of unit cells from the origin, in a border two cells wide: the cell
/// `(2, 2)` starts at the origin.
pub(super) fn grid() -> Grid {
    let mut grid = Grid::default();
    grid.fit(Vec2::ZERO, Vec2::new(10.0, 5.0), (1000, 0), 0.5, 0.0);
    grid
}

/// The cells a circle covers, expecting it to be placed in them.
pub(super) fn covered(grid: &Grid, center: Vec2, radius: f32) -> Option<CellRange> {
    match grid.cells_covered(center, radius) {
        Some(Covered::Cells(range)) => Some(range),
        Some(Covered::Oversized) => panic!("oversized"),
        None => None,
    }
}

#[test]
fn a_sparse_group_gets_no_more_than_a_few_cells_per_collider() {
    for typical_radius in [1.0, 1e5] {
        let mut grid = Grid::default();
        grid.fit(Vec2::ZERO, Vec2::splat(1e6), (10, 0), typical_radius, 0.0);
        // Not counting the border.
        assert!((grid.columns - 4) * (grid.rows - 4) <= 4 * 10 + 64);
    }
}

#[test]
fn a_box_far_wider_than_its_colliders_folds_onto_collider_wide_cells() {
    let mut grid = Grid::default();
    grid.fit(Vec2::ZERO, Vec2::splat(1e7), (1000, 0), 2.0, 0.0);
    let Layout::Wrapped {
        inverse_cell_size,
        real_columns,
        ..
    } = grid.layout
    else {
        panic!("dense");
    };
    assert_eq!(inverse_cell_size, 0.25);
    // The extent's cells, one more for the far corner, and one either side.
    assert_eq!(real_columns, 2.5e6 + 3.0);
    assert!(grid.columns.is_power_of_two() && grid.rows.is_power_of_two());
    assert!(grid.columns * grid.rows <= 4 * 1000 + 64);
    // Two cells a period apart share an array cell; their real numbers differ.
    let period = grid.columns as f32 * 4.0;
    let (near, far) = (
        covered(&grid, Vec2::new(1.0, 1.0), 0.5).unwrap(),
        covered(&grid, Vec2::new(1.0 + period, 1.0), 0.5).unwrap(),
    );
    assert_eq!(near.cells(&grid), far.cells(&grid));
    assert_eq!(far.first_column - near.first_column, grid.columns);
    // A collider spanning a whole period cannot be folded.
    assert!(matches!(
        grid.cells_covered(Vec2::splat(5e3), period),
        Some(Covered::Oversized)
    ));
}

/// A range across the folded array's edge, either way, lists each of its real cells folded
/// onto the array, row by row, each row in order from the range's first column: the spans a
/// build counts and fills by wrap round the edge.
#[test]
fn a_range_across_the_folds_edge_lists_its_folded_cells() {
    let mut grid = Grid::default();
    grid.fit(Vec2::ZERO, Vec2::splat(1e7), (1000, 0), 2.0, 0.0);
    assert!(grid.folded().is_some());
    let (columns, rows) = (grid.columns, grid.rows);
    let ranges = [
        // Across the last column and the last row.
        (columns - 2, rows - 1, columns + 1, rows + 1),
        // Real cells a few periods on, across the edge.
        (5 * columns - 1, 3 * rows, 5 * columns + 2, 3 * rows + 1),
        // Wholly inside, and one cell.
        (3, 4, 6, 4),
        (columns - 1, rows - 1, columns - 1, rows - 1),
        // Exactly a period wide, from the middle.
        (columns / 2, 0, columns / 2 + columns - 1, 0),
    ];
    for (first_column, first_row, last_column, last_row) in ranges {
        let range = CellRange {
            first_column,
            first_row,
            last_column,
            last_row,
        };
        let mut expected = Vec::new();
        for row in first_row..=last_row {
            for column in first_column..=last_column {
                expected.push(((row % rows) * columns + column % columns) as usize);
            }
        }
        assert_eq!(range.cells(&grid), expected, "{range:?}");
    }
}

#[test]
fn a_narrow_box_folds_only_along_its_length() {
    let mut grid = Grid::default();
    grid.fit(Vec2::ZERO, Vec2::new(1e7, 8.0), (1000, 0), 2.0, 0.0);
    assert!(matches!(grid.layout, Layout::Wrapped { .. }));
    // 8 units are two cells of 4, one more for the far edge and one either side: five
    // rows, rounded up to a power of two.
    assert_eq!(grid.rows, 8);
    assert_eq!(
        grid.columns * grid.rows,
        (4 * 1000 + 64_u32).next_power_of_two() / 2
    );
}
