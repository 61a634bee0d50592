export { DesignWorkspacePage as default } from "@/features/design/design-entry";
