//! A dense two-dimensional grid.

/// A cell position: column then row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    pub col: usize,
    pub row: usize,
}

/// What a cell holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cell {
    Empty,
    Wall,
    Visited(u32),
}

pub struct Grid {
    cells: Vec<Cell>,
    width: usize,
}

impl Grid {
    pub fn new(width: usize, height: usize) -> Grid {
        Grid { cells: vec![Cell::Empty; width * height], width }
    }

    pub fn get(&self, p: Pos) -> Option<&Cell> {
        self.cells.get(p.row * self.width + p.col)
    }

    pub fn set(&mut self, p: Pos, c: Cell) {
        let i = p.row * self.width + p.col;
        self.cells[i] = c;
    }
}
