/** Errors shared by every layer: the domain error, field errors, run failures. */
export * from "@/lib/errors/app-error";
export * from "@/lib/errors/field-error";
export * from "@/lib/errors/run-failure";
export * from "@/lib/errors/unstorable";
