/** A circle of radius r. */
export class Circle {
  constructor(public r: number) {}
  scale(k: number): Circle { return new Circle(this.r * k); }
}

export function area(c: Circle): number {
  return Math.PI * c.r * c.r;
}
