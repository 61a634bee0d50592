import { afterEach, describe, expect, it } from "vitest";
import { toast } from "sonner";
import { showActionErrors } from "@/components/action-form";

const toasts = () => toast.getHistory().map((t) => ("title" in t ? t.title : undefined));

describe("showActionErrors", () => {
  afterEach(() => toast.getHistory().splice(0));

  it("shows nothing for a success", () => {
    const shown: string[] = [];
    expect(showActionErrors({}, (f) => shown.push(f) > 0)).toBe(false);
    expect(showActionErrors(undefined, (f) => shown.push(f) > 0)).toBe(false);
    expect(shown).toEqual([]);
    expect(toasts()).toEqual([]);
  });

  it("puts a server error's field errors at their fields by JSON Pointer, else toasts its message", () => {
    const shown: [string, string][] = [];
    const error = { code: "conflict" as const, message: "Taken.", fieldErrors: { "/name": "A consumer with this name exists.", "/a/b~1c": "Bad." } };
    expect(showActionErrors({ serverError: error }, (f, m) => shown.push([f, m]) > 0)).toBe(true);
    expect(shown).toEqual([
      ["name", "A consumer with this name exists."],
      ["a.b/c", "Bad."],
    ]);
    expect(toasts()).toEqual([]);
    showActionErrors({ serverError: { ...error, fieldErrors: {} } }, () => true);
    expect(toasts()).toEqual(["Taken."]);
  });

  it("puts validation errors (input that skipped the form's check) at their fields", () => {
    const shown: [string, string][] = [];
    const result = { validationErrors: { formErrors: [], fieldErrors: { name: ["Too small: expected string to have >=1 characters", "Other"] } } };
    expect(showActionErrors(result, (f, m) => shown.push([f, m]) > 0)).toBe(true);
    expect(shown).toEqual([["name", "Too small: expected string to have >=1 characters"]]);
    expect(toasts()).toEqual([]);
  });

  it("toasts validation errors that no field shows", () => {
    const result = { validationErrors: { formErrors: ["Unrecognized key: extra"], fieldErrors: { organization: ["Invalid input"] } } };
    expect(showActionErrors(result, () => false)).toBe(true);
    expect(toasts()).toEqual(["Unrecognized key: extra organization: Invalid input"]);
    toast.getHistory().splice(0);
    showActionErrors({ validationErrors: { formErrors: [], fieldErrors: {} } }, () => true);
    expect(toasts()).toEqual(["Check the form and try again."]);
  });
});
