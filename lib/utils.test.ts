import { describe, expect, it } from "vitest";
import { compareNames } from "./utils";

describe("compareNames", () => {
  it("orders names as people read them: case-insensitive, locale-aware, numbers by value", () => {
    const names = ["World cities", "qa-basic", "Zürich shops", "zebra", "Äpfel", "apples", "Layer 10", "Layer 2"];
    expect([...names].sort(compareNames)).toEqual(["Äpfel", "apples", "Layer 2", "Layer 10", "qa-basic", "World cities", "zebra", "Zürich shops"]);
  });
});
