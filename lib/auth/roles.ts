/**
 * Roles per organization, ordered: `admin` may do everything a `designer` may (the design
 * tool) and also use the serving console.
 */
export type TRole = "designer" | "admin";

const RANK: Record<TRole, number> = { designer: 1, admin: 2 };

/** True when a member with role `has` may do what needs role `needs`. */
export function roleAllows(has: TRole, needs: TRole): boolean {
  return RANK[has] >= RANK[needs];
}
