export { default } from "@/features/console/keys-page";
