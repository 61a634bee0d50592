/** The sign-in form, validated the same way in the browser and in the server action. */
import { z } from "zod";

export const ZSignIn = z.object({
  email: z.string().trim().min(1, "Enter your email.").max(320).email("Enter a valid email address."),
  password: z.string().min(1, "Enter your password.").max(1024),
});
export type TSignIn = z.infer<typeof ZSignIn>;

/** The one answer to an unknown email and to a wrong password alike. */
export const WRONG_CREDENTIALS = "Wrong email or password.";
