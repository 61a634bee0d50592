export { default } from "@/features/home/landing-page";

export const dynamic = "force-dynamic";
