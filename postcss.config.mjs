// Tailwind CSS 4 through its PostCSS plugin (app/globals.css imports it).
const config = { plugins: { "@tailwindcss/postcss": {} } };

export default config;
