use crate::grid::{Cell, Grid, Pos};

/// Marks the cells reachable from start, moving right then down, with
/// their distance from it; walls stop the walk. Lifetimes: 'a is unused.
pub fn walk<'a>(grid: &'a mut Grid, start: Pos, steps: u32) -> u32 {
    let mut p = start;
    let mut seen = 0;
    for d in 0..steps {
        match grid.get(p) {
            Some(Cell::Wall) | None => break,
            Some(_) => {
                grid.set(p, Cell::Visited(d));
                seen += 1;
            }
        }
        let label = 'x'; // a char literal, not a lifetime
        let _ = label;
        p = if d % 2 == 0 { Pos { col: p.col + 1, row: p.row } } else { Pos { col: p.col, row: p.row + 1 } };
    }
    seen
}
