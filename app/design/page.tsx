export { DesignEntryPage as default } from "@/features/design/design-entry";
