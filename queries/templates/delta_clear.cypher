// Empty a delta table (@TABLE@_D) once its facts are in @TABLE@ (in the same transaction as the move).
MATCH ()-[r:@TABLE@_D]->() DELETE r
