package compat

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// TextOnlyMarker in a model's name makes the server a model that does
// not take images: a request with an image_url part gets OpenAI's 400 for
// a model without vision (e.g. "mock-text-only").
const TextOnlyMarker = "text-only"

// imageMimes are the image types the API takes in a data: URL.
var imageMimes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// Image is an image part's content as the server received it.
type Image struct {
	Mime string
	Data []byte
}

// Images returns the images a message's parts carry, in order (those the
// server validated: each a well-formed base64 data: URL).
func (m Message) Images() []Image {
	var out []Image
	for _, p := range m.Content.Parts {
		if p.Type != "image_url" {
			continue
		}
		if img, err := decodeImagePart(p.ImageURL); err == nil {
			out = append(out, img)
		}
	}
	return out
}

// validateImages checks each image_url part as the real API does: an
// object with a url (and an optional detail), the url a data: URL of a
// PNG, JPEG, GIF or WebP in valid base64 whose bytes are that image (or
// an http(s) URL, which the server does not fetch); and it refuses them
// all for a text-only model.
func validateImages(model string, i int, m Message) error {
	for j, p := range m.Content.Parts {
		if p.Type != "image_url" {
			continue
		}
		if strings.Contains(model, TextOnlyMarker) {
			return invalid(fmt.Sprintf("messages.[%d].content.[%d].type", i, j),
				"Invalid content type. image_url is only supported by certain models.")
		}
		if _, err := decodeImagePart(p.ImageURL); err != nil {
			if e, ok := err.(*APIError); ok && e.Param == "" {
				e.Param = fmt.Sprintf("messages.[%d].content.[%d].image_url", i, j)
			}
			return err
		}
	}
	return nil
}

// decodeImagePart reads an image_url part's object.
func decodeImagePart(raw json.RawMessage) (Image, error) {
	var part struct {
		URL    string `json:"url"`
		Detail string `json:"detail,omitempty"`
	}
	if err := strictUnmarshal(raw, &part); err != nil {
		return Image{}, invalid("", "Invalid type for 'image_url': expected an object with 'url'.")
	}
	switch part.Detail {
	case "", "auto", "low", "high", "original":
	default:
		return Image{}, invalid("", "Invalid value: '%s'. Supported values are: 'auto', 'low', 'high' and 'original'.", part.Detail)
	}
	if part.URL == "" {
		return Image{}, invalid("", "Missing required parameter: 'image_url.url'.")
	}
	if strings.HasPrefix(part.URL, "https://") || strings.HasPrefix(part.URL, "http://") {
		return Image{}, nil
	}
	head, data, ok := strings.Cut(strings.TrimPrefix(part.URL, "data:"), ",")
	mime, isBase64 := strings.CutSuffix(head, ";base64")
	if !strings.HasPrefix(part.URL, "data:") || !ok || !isBase64 {
		return Image{}, imageError("invalid_image_url", "Invalid image URL: expected a base64-encoded data URL or an http(s) URL.")
	}
	if !imageMimes[mime] {
		return Image{}, imageError("invalid_image_format",
			"You uploaded an unsupported image. Please make sure your image has of one the following formats: ['png', 'jpeg', 'gif', 'webp'].")
	}
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return Image{}, imageError("invalid_image_url", "Invalid base64 image_url.")
	}
	if got := http.DetectContentType(b); got != mime {
		return Image{}, imageError("invalid_image", "The image data you provided does not represent a valid image (it is not "+mime+").")
	}
	return Image{Mime: mime, Data: b}, nil
}

func imageError(code, msg string) *APIError {
	return &APIError{Status: http.StatusBadRequest, Type: "invalid_request_error", Code: code, Message: msg}
}
