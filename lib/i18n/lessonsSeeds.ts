// Strings of the status-bar lesson's decisions step (components/lessons/StepViews SeedsColumn).
import type { Dict } from './types';

export const lessonsSeedsStrings = {
  'lessonsSeeds.computing': { en: 'Sampling both arms over the seeds …', zh: '正在对两组按各个种子采样 …' },
  'lessonsSeeds.sampling': {
    en: 'Seeds {first}–{last} per arm, at most {max} new tokens each; {how} (the model’s generation_config.json).',
    zh: '每组种子 {first}–{last}，每次最多 {max} 个新 token；{how}（模型的 generation_config.json）。',
  },
} satisfies Dict;
