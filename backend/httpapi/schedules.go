package httpapi

import (
	"net/http"
	"strconv"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/service"
)

// Schedules (docs/ARCHITECTURE.md §API, §Schedules): list, create, read, edit/pause, delete, run
// now, history, and a preview of what a phrase or expression means.

func (h *Handler) listSchedules(w http.ResponseWriter, r *http.Request) {
	ss, err := h.svc.Schedules(r.Context())
	reply(w, http.StatusOK, ss, err)
}

func (h *Handler) createSchedule(w http.ResponseWriter, r *http.Request) {
	var req service.ScheduleRequest
	if !decode(w, r, &req) {
		return
	}
	s, err := h.svc.CreateSchedule(r.Context(), req)
	reply(w, http.StatusCreated, s, err)
}

func (h *Handler) getSchedule(w http.ResponseWriter, r *http.Request) {
	s, err := h.svc.Schedule(r.Context(), r.PathValue("id"))
	reply(w, http.StatusOK, s, err)
}

func (h *Handler) patchSchedule(w http.ResponseWriter, r *http.Request) {
	var p service.SchedulePatch
	if !decode(w, r, &p) {
		return
	}
	s, err := h.svc.UpdateSchedule(r.Context(), r.PathValue("id"), p)
	reply(w, http.StatusOK, s, err)
}

func (h *Handler) deleteSchedule(w http.ResponseWriter, r *http.Request) {
	if err := h.svc.DeleteSchedule(r.Context(), r.PathValue("id")); err != nil {
		fail(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h *Handler) runSchedule(w http.ResponseWriter, r *http.Request) {
	var body struct{}
	if !decodeOptional(w, r, &body) {
		return
	}
	f, err := h.svc.RunSchedule(r.Context(), r.PathValue("id"))
	reply(w, http.StatusAccepted, f, err)
}

func (h *Handler) scheduleHistory(w http.ResponseWriter, r *http.Request) {
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	fs, err := h.svc.ScheduleHistory(r.Context(), r.PathValue("id"), limit)
	reply(w, http.StatusOK, fs, err)
}

// previewSchedule: ?when=PHRASE|CRON or ?at=RFC3339, and &timezone=ZONE.
func (h *Handler) previewSchedule(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var at *time.Time
	if v := q.Get("at"); v != "" {
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			writeError(w, http.StatusBadRequest, service.CodeBadRequest, "at must be a time like 2026-12-01T18:00:00+01:00")
			return
		}
		at = &t
	}
	p, err := h.svc.PreviewSchedule(r.Context(), q.Get("when"), at, q.Get("timezone"))
	reply(w, http.StatusOK, p, err)
}
