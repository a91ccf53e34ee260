// Placeholder entry point; the benchmark is being built here (issue 6).
console.log('tutorloop bench: not built yet');
