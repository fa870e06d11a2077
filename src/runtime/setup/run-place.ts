/** Where a run's session lives: the project's folder under panto's home, and the run's directory. */
export interface RunPlace {
  cwd: string;
  pantoHome: string;
  projectRoot: string;
}
