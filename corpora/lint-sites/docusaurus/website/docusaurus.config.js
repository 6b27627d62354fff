module.exports = {
  title: "Fixture",
  presets: [
    [
      "classic",
      {
        docs: {
          path: "../docs",
          sidebarPath: "./sidebars.json",
        },
      },
    ],
  ],
};
