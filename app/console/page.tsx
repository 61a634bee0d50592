export { ConsoleEntryPage as default } from "@/features/console/console-entry";
