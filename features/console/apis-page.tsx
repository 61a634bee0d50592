import { ServerIcon } from "lucide-react";
import { consoleSectionPage } from "@/features/console/section-page";

export default consoleSectionPage("apis", {
  icon: ServerIcon,
  title: "No served APIs to show yet",
  description: "The APIs this environment serves, with their release, pinned flow version and publish time, arrive here.",
});
