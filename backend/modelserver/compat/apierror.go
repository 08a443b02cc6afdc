package compat

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// APIError is an error as the OpenAI API reports it: an HTTP status and the
// body {"error":{"message","type","param","code"}}. Empty Param and Code
// are written as null.
type APIError struct {
	Status  int
	Message string
	Type    string
	Param   string
	Code    string
}

func (e *APIError) Error() string {
	if e.Param != "" {
		return fmt.Sprintf("%d %s (param %s)", e.Status, e.Message, e.Param)
	}
	return fmt.Sprintf("%d %s", e.Status, e.Message)
}

// ErrorBody is the JSON body of an error response.
type ErrorBody struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail is the "error" object of an error response. Param and Code
// are null when absent.
type ErrorDetail struct {
	Message string  `json:"message"`
	Type    string  `json:"type"`
	Param   *string `json:"param"`
	Code    *string `json:"code"`
}

// Body returns the error's response body.
func (e *APIError) Body() ErrorBody {
	return ErrorBody{Error: ErrorDetail{
		Message: e.Message,
		Type:    e.Type,
		Param:   nullable(e.Param),
		Code:    nullable(e.Code),
	}}
}

// Write sends the error as an HTTP response.
func (e *APIError) Write(w http.ResponseWriter) {
	status := e.Status
	if status == 0 {
		status = http.StatusInternalServerError
	}
	writeJSON(w, status, e.Body())
}

// invalid returns a 400 invalid_request_error.
func invalid(param, format string, args ...any) *APIError {
	return &APIError{
		Status:  http.StatusBadRequest,
		Message: fmt.Sprintf(format, args...),
		Type:    "invalid_request_error",
		Param:   param,
	}
}

// errorType is the "type" the real API uses for an HTTP status.
func errorType(status int) string {
	switch {
	case status == http.StatusTooManyRequests:
		return "requests"
	case status == http.StatusForbidden:
		return "permission_error"
	case status >= 500:
		return "server_error"
	default:
		return "invalid_request_error"
	}
}

// errorCode is the "code" the real API uses for an HTTP status, if any.
func errorCode(status int) string {
	switch status {
	case http.StatusUnauthorized:
		return "invalid_api_key"
	case http.StatusNotFound:
		return "model_not_found"
	case http.StatusTooManyRequests:
		return "rate_limit_exceeded"
	default:
		return ""
	}
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}
