// Placeholder entry point; the evaluation pipeline CLI is being built here (issue 6).
console.log('tutorloop eval: not built yet');
