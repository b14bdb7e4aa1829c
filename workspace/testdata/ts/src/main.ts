import { Circle, area } from "./shapes";
import { log } from "./lib";
import { clamp } from "./math.js";

export function report(r: number): string {
  const c = new Circle(r);
  log(area(c));
  return String(clamp(r, 0, 10));
}
