export { default } from "@/features/console/ai-access-page";
