import { BotIcon } from "lucide-react";
import { consoleSectionPage } from "@/features/console/section-page";

export default consoleSectionPage("ai-access", {
  icon: BotIcon,
  title: "AI access is not set up here yet",
  description: "Which APIs AI assistants may use over MCP, and how to connect a client, arrive here.",
});
