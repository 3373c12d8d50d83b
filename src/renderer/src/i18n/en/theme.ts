export const theme = {
  label: 'Theme',
  system: 'System',
  light: 'Light',
  dark: 'Dark'
}
