prob too_many_questions.muster m --exact
