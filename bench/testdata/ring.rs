//! A fixed-capacity ring buffer that overwrites its oldest element when full.

use std::fmt;
use std::iter::FromIterator;

/// A queue of at most `capacity` elements; pushing onto a full buffer
/// drops the oldest one.
pub struct RingBuffer<T> {
    slots: Vec<Option<T>>,
    head: usize,
    len: usize,
}

impl<T> RingBuffer<T> {
    /// Creates an empty buffer that holds up to `capacity` elements.
    pub fn with_capacity(capacity: usize) -> Self {
        assert!(capacity > 0, "ring buffer capacity must be positive");
        let mut slots = Vec::with_capacity(capacity);
        slots.resize_with(capacity, || None);
        RingBuffer { slots, head: 0, len: 0 }
    }

    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn is_full(&self) -> bool {
        self.len == self.capacity()
    }

    /// Appends `value`, returning the element it displaced when full.
    pub fn push(&mut self, value: T) -> Option<T> {
        let tail = (self.head + self.len) % self.capacity();
        if self.is_full() {
            let old = self.slots[tail].replace(value);
            self.head = (self.head + 1) % self.capacity();
            old
        } else {
            self.slots[tail] = Some(value);
            self.len += 1;
            None
        }
    }

    /// Removes and returns the oldest element.
    pub fn pop(&mut self) -> Option<T> {
        if self.is_empty() {
            return None;
        }
        let value = self.slots[self.head].take();
        self.head = (self.head + 1) % self.capacity();
        self.len -= 1;
        value
    }

    pub fn front(&self) -> Option<&T> {
        self.get(0)
    }

    pub fn back(&self) -> Option<&T> {
        if self.is_empty() {
            None
        } else {
            self.get(self.len - 1)
        }
    }

    /// Returns the element `index` places after the oldest.
    pub fn get(&self, index: usize) -> Option<&T> {
        if index >= self.len {
            return None;
        }
        self.slots[(self.head + index) % self.capacity()].as_ref()
    }

    pub fn clear(&mut self) {
        while self.pop().is_some() {}
    }

    pub fn iter(&self) -> Iter<'_, T> {
        Iter { ring: self, index: 0 }
    }
}

pub struct Iter<'a, T> {
    ring: &'a RingBuffer<T>,
    index: usize,
}

impl<'a, T> Iterator for Iter<'a, T> {
    type Item = &'a T;

    fn next(&mut self) -> Option<Self::Item> {
        let item = self.ring.get(self.index)?;
        self.index += 1;
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let rest = self.ring.len() - self.index;
        (rest, Some(rest))
    }
}

impl<T> FromIterator<T> for RingBuffer<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let items: Vec<T> = iter.into_iter().collect();
        let mut ring = RingBuffer::with_capacity(items.len().max(1));
        for item in items {
            ring.push(item);
        }
        ring
    }
}

impl<T: fmt::Debug> fmt::Debug for RingBuffer<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overwrites_oldest_when_full() {
        let mut ring = RingBuffer::with_capacity(3);
        for i in 0..5 {
            ring.push(i);
        }
        assert_eq!(ring.iter().copied().collect::<Vec<_>>(), vec![2, 3, 4]);
        assert_eq!(ring.pop(), Some(2));
        assert_eq!(ring.len(), 2);
    }
}
