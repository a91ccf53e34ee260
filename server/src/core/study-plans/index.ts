/** Study plans (SPEC §4.4): validation, the Markdown format, imports, access rules, the built-in plans. */
export { canReadStudyPlan, canWriteStudyPlan } from './access';
export { defaultStudyPlanDir, loadBuiltInPlans, parseBuiltInPlans, StudyPlanFileError, type StudyPlanSource } from './built-in-plans';
export { importStudyPlan, type ImportPlanResult, type StudyPlanFormat } from './import-plan';
export { parseStudyPlanMarkdown, type MarkdownPlanResult } from './parse-markdown';
export { checkSkillBlueprints, fieldOf, formatIssues, issuesFromZod, validateStudyPlan, type PlanIssue, type PlanValidation, type SkillBlueprintIds } from './validate-plan';
