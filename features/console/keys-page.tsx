import { KeyRoundIcon } from "lucide-react";
import { consoleSectionPage } from "@/features/console/section-page";

export default consoleSectionPage("keys", {
  icon: KeyRoundIcon,
  title: "No keys to show yet",
  description: "API keys belong to consumers; creating, revoking and rotating them arrive here.",
});
