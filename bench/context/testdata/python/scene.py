"""A scene: shapes on a canvas, and queries over them."""

from shapes import Box, Circle


def total_area(shapes):
    # Sum of the areas; overlaps count twice.
    return sum(s.area() for s in shapes)


def hit(shapes, x, y):
    """Returns the shapes whose bounding box holds the point (x, y)."""
    found = []
    for shape in shapes:
        box = shape.bounds() if isinstance(shape, Circle) else shape
        if box.contains(x, y):
            found.append(shape)
    return found


def demo():
    shapes = [Box(0, 0, 4, 3), Circle(2, 2, radius=1.5)]
    print(f"total {total_area(shapes):.2f}")
    for s in hit(shapes, 1, 1):
        print("hit", type(s).__name__, s.area())
    return shapes


if __name__ == "__main__":
    demo()
