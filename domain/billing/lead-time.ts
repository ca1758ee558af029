/**
 * Working days from an add-on's purchase to its being ready (as a delivery: spec, within 2 working
 * days). Apart from the rule that counts them (availability.ts, with every country's public
 * holidays), so a page can name the figure without loading the holiday tables.
 */
export const ADD_ON_LEAD_WORKING_DAYS = 2;
