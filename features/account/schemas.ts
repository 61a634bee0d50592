import { z } from "zod";

/** Same rule as lib/users/password.ts MIN_PASSWORD_LENGTH (NIST SP 800-63B). */
export const PASSWORD_MIN = 8;

export const ZChangePassword = z
  .object({
    currentPassword: z.string().min(1, "Enter your current password.").max(1024),
    newPassword: z.string().min(PASSWORD_MIN, `Use at least ${PASSWORD_MIN} characters.`).max(1024),
    confirmPassword: z.string().max(1024),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ["confirmPassword"], message: "The two new passwords differ." });
