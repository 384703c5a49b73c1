/** Facade for dormant recall (§9): the review log, inspection, feedback and calibration. */
import type { CalibrationReport } from '../dormant/calibrate.js';
import type { DormantRecall } from '../dormant/dormant-recall.js';
import type {
  DormantCalibrateInput,
  DormantFeedbackInput,
  DormantInspectInput,
  DormantReviewInput,
} from '../dormant/input.js';
import type { DormantFeedbackResult, DormantInspection, DormantReview } from '../dormant/views.js';
import { objectArg, optionsArg, stringOrObjectArg } from './args.js';

/** The dormant-recall facade. */
export interface DormantFacade {
  /** Newest dormant-recall review-log events of a space: metadata only (§9.4). */
  dormantReview(input?: DormantReviewInput): Promise<DormantReview>;
  /** An event's memory as it is now (when still eligible), marked shown; with its evidence. */
  dormantInspect(input: DormantInspectInput | string): Promise<DormantInspection>;
  /** Feedback on a dormant event: useful, irrelevant or dismissed (one category per event). */
  dormantFeedback(input: DormantFeedbackInput): Promise<DormantFeedbackResult>;
  /** Raw-cosine and relevance-check score distributions, to set the dormant thresholds. */
  dormantCalibrate(input?: DormantCalibrateInput): Promise<CalibrationReport>;
  /** Resolves when every scheduled shadow evaluation has finished (tests, benchmarks). */
  dormantIdle(): Promise<void>;
}

/** The dormant-recall facade over the dormant-recall module. */
export function dormantFacade(dormant: DormantRecall): DormantFacade {
  return {
    dormantReview: async (input) => dormant.review(optionsArg(input, 'input')),
    dormantInspect: async (input) => {
      const given = stringOrObjectArg(input, 'input');
      return dormant.inspect(typeof given === 'string' ? { event_id: given } : given);
    },
    dormantFeedback: async (input) => dormant.feedback(objectArg(input, 'input')),
    dormantCalibrate: async (input) => dormant.calibrate(optionsArg(input, 'input')),
    dormantIdle: () => dormant.idle(),
  };
}
