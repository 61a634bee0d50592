"use client";
export { default } from "@/features/shell/error-page";
