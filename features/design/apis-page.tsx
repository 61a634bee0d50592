import { PlugZapIcon } from "lucide-react";
import { designSectionPage } from "@/features/design/section-page";

export default designSectionPage("apis", {
  icon: PlugZapIcon,
  title: "No APIs to show yet",
  description: "Flow APIs turn a flow into an HTTP API: create a draft, Try it, publish. The API list arrives here.",
});
