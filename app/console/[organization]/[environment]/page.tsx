export { ConsoleEnvironmentPage as default } from "@/features/console/console-entry";
