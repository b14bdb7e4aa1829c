"""Plane shapes with areas and bounding boxes."""

import math

UNIT = 1.0


class Box:
    """An axis-aligned rectangle."""

    def __init__(self, left, top, width, height):
        self.left = left
        self.top = top
        self.width = width
        self.height = height

    def area(self):
        return self.width * self.height

    def contains(self, x, y):
        return self.left <= x < self.left + self.width and self.top <= y < self.top + self.height


class Circle:
    def __init__(self, cx, cy, radius=UNIT):
        self.cx, self.cy, self.radius = cx, cy, radius

    def area(self):
        return math.pi * self.radius ** 2

    def bounds(self):
        r = self.radius
        return Box(self.cx - r, self.cy - r, 2 * r, 2 * r)
